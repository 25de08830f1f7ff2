import { pino, type Logger, type LoggerOptions } from 'pino';
import { prettyDestination } from './pretty.js';
import { scopeFields } from './scope.js';

export { prettyLine } from './pretty.js';

export type { Logger } from 'pino';
export {
  currentScope,
  fieldsOf,
  followScopesAcrossAwaits,
  runInScope,
  runOutsideScope,
  type RequestContext,
  type RequestScope,
} from './scope.js';

/**
 * Paths pino replaces with "[redacted]" wherever they appear in a log object. Keys, admin tokens,
 * provider credentials and provider signed URLs must never reach a log line.
 */
export const redactPaths: readonly string[] = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'request.headers.authorization',
  '*.authorization',
  'headers["x-api-key"]',
  'req.headers["x-api-key"]',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'key',
  '*.key',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'password',
  '*.password',
  'credential',
  '*.credential',
  'adminToken',
  '*.adminToken',
  'url',
  '*.url',
  'signedUrl',
  '*.signedUrl',
  'video_url',
  '*.video_url',
];

export interface CreateLoggerOptions {
  /** Bound to every line, e.g. the service name. */
  name?: string;
  /** Defaults to $LOG_LEVEL, else "info". */
  level?: string;
  /** Where lines go; defaults to standard output. */
  destination?: pino.DestinationStream;
  /**
   * `json` (one object per line) or `pretty` (for a person: coloured when a terminal). Defaults
   * to $LOG_FORMAT, else pretty when standard output is a terminal and no destination is given.
   */
  format?: LogFormat;
}

export type LogFormat = 'json' | 'pretty';

/** The format $LOG_FORMAT names; anything but json/pretty is refused, so a typo is not silently JSON. */
export function logFormatOf(env: Readonly<Record<string, string | undefined>> = process.env): LogFormat | undefined {
  const raw = env.LOG_FORMAT?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'json' || raw === 'pretty') return raw;
  throw new Error(`LOG_FORMAT must be json or pretty, not "${env.LOG_FORMAT}"`);
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const level = options.level ?? (process.env.LOG_LEVEL?.trim() || 'info');
  if (!LEVELS.includes(level)) throw new Error(`LOG_LEVEL must be one of ${LEVELS.join(', ')}, not "${level}"`);
  const config: LoggerOptions = {
    level,
    redact: { paths: [...redactPaths], censor: '[redacted]' },
    base: options.name ? { service: options.name } : {},
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Every line written while a request is handled names it (and its trace), in every service,
    // without threading ids through each call; a field the line sets itself wins.
    mixin: scopeFields,
  };
  const format = options.format ?? logFormatOf() ?? (options.destination === undefined && process.stdout.isTTY ? 'pretty' : 'json');
  if (format === 'pretty') return pino(config, prettyDestination(options.destination ?? process.stdout) as pino.DestinationStream);
  return options.destination ? pino(config, options.destination) : pino(config);
}

/** A logger that writes nothing, for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
