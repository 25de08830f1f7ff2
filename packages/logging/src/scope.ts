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
const storage = holder[STORAGE_KEY] ??= new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (and whatever it starts) inside `scope`. */
export function runInScope<R>(scope: RequestScope, fn: () => R): R {
  return storage.run(scope, fn);
}

/** The scope of the work in progress, if it belongs to a request. */
export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

/**
 * Runs `fn` outside any request: for background work started from a request (a queued event,
 * say) that must not carry that request's id into its own log lines.
 */
export function runOutsideScope<R>(fn: () => R): R {
  return storage.exit(fn);
}

/** The fields every log line gets from its scope (a fresh object: pino merges into it). */
export function scopeFields(): { requestId?: string; traceId?: string } {
  const scope = storage.getStore();
  if (!scope) return {};
  return { requestId: scope.requestId, traceId: scope.traceId };
}
