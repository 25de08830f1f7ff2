import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the work in progress belongs to: the caller's request and its trace. One store serves
 * both logging (every line written inside it carries `requestId` and `traceId`) and tracing
 * (the trace context lives in `trace`), so a request pays for one AsyncLocalStorage, not two.
 */
export interface RequestScope {
  readonly requestId: string | undefined;
  /** The W3C trace id (32 hex digits) of the trace the work continues. */
  readonly traceId: string | undefined;
  /** The tracing library's context object; opaque here (packages/telemetry owns it). */
  readonly trace: unknown;
}

// One store per process, even if this module were loaded twice: OpenTelemetry registers its
// context manager process-wide, and it must read the same store the loggers do.
const STORAGE_KEY = Symbol.for('@gateway/logging:request-scope');
const holder = globalThis as { [STORAGE_KEY]?: AsyncLocalStorage<RequestScope> };
holder[STORAGE_KEY] ??= new AsyncLocalStorage<RequestScope>();
const storage = holder[STORAGE_KEY];

/**
 * How a request's identity reaches the code handling it. Carrying a scope across awaits takes
 * AsyncLocalStorage, which on Node 20 runs a hook on every promise the process creates (a fifth
 * of the CPU of a busy chat service, measured). So scopes follow async continuations only while
 * traces are exported (`followScopesAcrossAwaits`, called when an exporter starts); otherwise a
 * scope holds for the synchronous run of `runInScope`, and the request's code passes it on
 * explicitly: in CallContext to onward gRPC calls, and into its own log lines (`fieldsOf`).
 */
let acrossAwaits = false;
let synchronous: RequestScope | undefined;

/** Makes scopes follow async continuations (AsyncLocalStorage) from now on, process-wide. */
export function followScopesAcrossAwaits(): void {
  acrossAwaits = true;
}

/** Runs `fn` inside `scope`: what it starts too while scopes follow awaits, else its synchronous part. */
export function runInScope<R>(scope: RequestScope, fn: () => R): R {
  if (acrossAwaits) return storage.run(scope, fn);
  const previous = synchronous;
  synchronous = scope;
  try {
    return fn();
  } finally {
    synchronous = previous;
  }
}

/** The scope of the work in progress, if it belongs to a request. */
export function currentScope(): RequestScope | undefined {
  return acrossAwaits ? storage.getStore() : synchronous;
}

/**
 * Runs `fn` outside any request: for background work started from a request (a queued event,
 * say) that must not carry that request's id into its own log lines.
 */
export function runOutsideScope<R>(fn: () => R): R {
  if (acrossAwaits) return storage.exit(fn);
  const previous = synchronous;
  synchronous = undefined;
  try {
    return fn();
  } finally {
    synchronous = previous;
  }
}

/** The fields every log line gets from its scope (a fresh object: pino merges into it). */
export function scopeFields(): { requestId?: string; traceId?: string } {
  return fieldsOf(currentScope());
}

/** A scope's fields for a log line written where the scope is passed explicitly. */
export function fieldsOf(scope: RequestScope | undefined): { requestId?: string; traceId?: string } {
  if (!scope) return {};
  return { requestId: scope.requestId, traceId: scope.traceId };
}

/** Who a piece of work is for: passed explicitly along a request's path. */
export interface RequestContext {
  requestId?: string | undefined;
  scope?: RequestScope | undefined;
}
