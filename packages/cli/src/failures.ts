import { ConfigError } from '@gateway/config';
import { AdminApiError } from './admin-client.js';
import { UsageError } from './admin-commands.js';
import { ChildStartError, MissingNatsError } from './processes.js';

// Every way the CLI can fail, said in one line: `gateway: <what went wrong> (<what to do>)`,
// with the exit code the README documents (1: failed, 2: wrong usage). Stacks are for faults
// nobody foresaw, and only with LOG_LEVEL=debug.

export interface Failure {
  message: string;
  hint: string;
  exitCode: 1 | 2;
}

/** What the failing command was asked to do, so a hint can name the right variable or flag. */
export interface FailureContext {
  env: NodeJS.ProcessEnv;
  /** e.g. "start", "keys list": the --help a usage error points to. */
  command: string;
  /** `start --separate`: port clashes may also be solved with --auto-ports. */
  separate?: boolean;
}

interface SystemError extends Error {
  code?: string;
  port?: number;
  path?: string;
  syscall?: string;
}

/** Which variable sets a port that turned out to be taken. */
function portVariable(port: number | undefined, env: NodeJS.ProcessEnv): string {
  if (port === undefined) return 'PORT';
  const named: [string, string | undefined, number][] = [
    ['PORT', env.PORT, 4000],
    ['METRICS_PORT', env.METRICS_PORT, 9464],
    ['GRPC_PORT', env.GRPC_PORT, Number.NaN],
  ];
  for (const [name, value, fallback] of named) if (port === (value === undefined || value === '' ? fallback : Number(value))) return name;
  return [50051, 50052, 50053].includes(port) ? 'GRPC_PORT' : 'PORT';
}

export function explain(error: unknown, context: FailureContext): Failure {
  const help = context.command ? `see gateway ${context.command} --help` : 'see gateway --help';
  if (error instanceof UsageError) return { message: error.message.replace(/\.$/, ''), hint: help, exitCode: 2 };
  if (error instanceof ConfigError) {
    const [first, ...more] = error.issues;
    const where = first ? `${first.path || '(root)'}: ${first.message}` : 'it does not validate';
    const also = more.length > 0 ? `, and ${more.length} more problem${more.length > 1 ? 's' : ''}` : '';
    return {
      message: `invalid configuration in ${error.source}: ${where}${also}`,
      hint: `gateway config check ${error.source} lists every problem`,
      exitCode: 1,
    };
  }
  if (error instanceof AdminApiError) {
    if (error.code === 'unreachable')
      return { message: error.message, hint: 'is the gateway running? set GATEWAY_URL to where it listens', exitCode: 1 };
    if (error.code === 'invalid_admin_token' || error.status === 401)
      return { message: error.message, hint: 'set ADMIN_TOKEN to the token the gateway was started with', exitCode: 1 };
    return { message: error.message, hint: error.code, exitCode: 1 };
  }
  if (error instanceof MissingNatsError) {
    return { message: error.message, hint: 'start nats-server -js and set NATS_URL, e.g. nats://127.0.0.1:4222', exitCode: 1 };
  }
  if (error instanceof ChildStartError) {
    const clash = /is in use/.test(error.reason ?? '');
    const hint = error.hint ?? 'its log lines above say more';
    return { message: error.message, hint: clash ? `${hint}, or run with --auto-ports` : hint, exitCode: 1 };
  }
  const system = error as SystemError;
  const code = typeof system?.code === 'string' ? system.code : '';
  if (code.startsWith('ERR_PARSE_ARGS_')) {
    return {
      message: `${context.command}: ${system.message.split('\n')[0]?.replace(/\. To specify.*$/, '') ?? 'wrong arguments'}`,
      hint: help,
      exitCode: 2,
    };
  }
  if (code === 'EADDRINUSE') {
    const variable = portVariable(system.port, context.env);
    const where = system.port === undefined ? 'a port' : `port ${system.port}`;
    const separately = context.separate ? ', or run with --auto-ports' : '';
    return { message: `${where} is in use`, hint: `set ${variable} to a free port, or stop what uses it${separately}`, exitCode: 1 };
  }
  if (code === 'EADDRNOTAVAIL' || (code === 'ENOTFOUND' && system.syscall === 'getaddrinfo')) {
    return {
      message: `cannot listen on that address (${code})`,
      hint: 'set HOST (or GRPC_HOST) to an address of this machine',
      exitCode: 1,
    };
  }
  if ((code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') && system.path) {
    return {
      message: `cannot read ${system.path} (${code})`,
      hint: /\.ya?ml$/i.test(system.path)
        ? 'point GATEWAY_CONFIG at a readable YAML file, or unset it to use ./gateway.yaml or the shipped example'
        : 'check the path and its permissions (GATEWAY_DATA_DIR for the data folder)',
      exitCode: 1,
    };
  }
  if (system?.name === 'NatsUnreachableError') {
    return {
      message: system.message,
      hint: 'start nats-server with JetStream (-js), check NATS_URL, or unset it to use the in-process bus',
      exitCode: 1,
    };
  }
  if (system?.name === 'MongoServerSelectionError' || system?.name === 'MongoParseError') {
    return {
      message: `cannot use MongoDB: ${system.message.split('\n')[0]}`,
      hint: 'check MONGODB_URI, or unset it to use the embedded store',
      exitCode: 1,
    };
  }
  if (error instanceof Error && /^(LOG_LEVEL|LOG_FORMAT|METRICS_PORT|PORT|GRPC_PORT)\b/.test(error.message)) {
    return { message: error.message, hint: 'fix or unset it', exitCode: 2 };
  }
  const text = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return { message: text ?? 'failed', hint: 'unexpected; run again with LOG_LEVEL=debug to see where', exitCode: 1 };
}

/** The one line, as printed. */
export function failureLine(failure: Failure): string {
  return `gateway: ${failure.message} (${failure.hint})`;
}
