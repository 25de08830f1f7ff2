import { pino, type Logger, type LoggerOptions } from 'pino';
import { prettyDestination } from './pretty.js';
import { bufferedDestination } from './destination.js';
import { redactSecrets } from './redact.js';
import { scopeFields } from './scope.js';

export { prettyLine } from './pretty.js';
export { REDACTED, redactSecrets, SECRET_FIELDS } from './redact.js';
export { bufferedDestination, LOG_BUFFER_BYTES, LOG_FLUSH_MS, type BufferedDestinationOptions } from './destination.js';

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

export interface CreateLoggerOptions {
  /** Bound to every line, e.g. the service name. */
  name?: string;
  /** Defaults to $LOG_LEVEL, else "info". */
  level?: string;
  /** Where lines go; defaults to standard output, written in batches (destination.ts). */
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
    // GATEWAY_PROCESS: set by `gateway start --separate` for each process it starts (e.g. chat-2).
    base: {
      ...(options.name ? { service: options.name } : {}),
      ...(process.env.GATEWAY_PROCESS ? { process: process.env.GATEWAY_PROCESS } : {}),
    },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Secrets are taken out of every line, its bindings and its error (see redact.ts).
    formatters: { level: (label) => ({ level: label }), log: redactSecrets, bindings: redactSecrets },
    // pino's serialized error has a prototype of its own: spread, so the walk reads its fields.
    serializers: { err: (error: Error) => redactSecrets({ ...pino.stdSerializers.err(error) }) },
    // Every line written while a request is handled names it (and its trace), in every service,
    // without threading ids through each call; a field the line sets itself wins.
    mixin: scopeFields,
  };
  const format = options.format ?? logFormatOf() ?? (options.destination === undefined && process.stdout.isTTY ? 'pretty' : 'json');
  const logger =
    format === 'pretty'
      ? pino(config, prettyDestination(options.destination ?? process.stdout) as pino.DestinationStream)
      : options.destination
        ? pino(config, options.destination)
        : pino(config, bufferedDestination());
  return withRedactedBindings(logger);
}

/**
 * pino formats a child's bindings without the `bindings` formatter, so children are made
 * through this: every child descends from the root (pino's children inherit from their
 * parent), and its bindings are redacted once, when it is made.
 */
function withRedactedBindings(logger: Logger): Logger {
  const child = logger.child;
  logger.child = function redactedChild(this: Logger, bindings, childOptions) {
    return child.call(this, redactSecrets(bindings), childOptions);
  } as Logger['child'];
  return logger;
}

/** A logger that writes nothing, for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
