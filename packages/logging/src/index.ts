import { pino, type Logger, type LoggerOptions } from 'pino';
import { scopeFields } from './scope.js';

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
}

export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: [...redactPaths], censor: '[redacted]' },
    base: options.name ? { service: options.name } : {},
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Every line written while a request is handled names it (and its trace), in every service,
    // without threading ids through each call; a field the line sets itself wins.
    mixin: scopeFields,
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}

/** A logger that writes nothing, for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
