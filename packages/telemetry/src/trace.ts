import {
  context,
  defaultTextMapGetter,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type ContextManager,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { currentScope, runInScope, type RequestScope } from '@gateway/logging';

// Trace context crosses every hop as W3C `traceparent` / `tracestate` (HTTP headers at the edge,
// gRPC metadata between services). Work runs inside a RequestScope (packages/logging), whose
// `trace` slot holds the OpenTelemetry context: one AsyncLocalStorage carries the request id,
// the trace id for log lines and the context spans and propagation read.
//
// Without an exporter nothing is recorded, but context still flows: the edge starts a trace
// (fresh ids) or continues the caller's, and each service continues the one it is handed.

/** OpenTelemetry's context manager over the request scope. */
class ScopeContextManager implements ContextManager {
  active(): Context {
    return (currentScope()?.trace as Context | undefined) ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const scope: RequestScope = { requestId: currentScope()?.requestId, traceId: trace.getSpanContext(ctx)?.traceId, trace: ctx };
    return runInScope(scope, () => fn.apply(thisArg, args));
  }

  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as unknown as (...args: unknown[]) => unknown;
    const bound = (...args: unknown[]): unknown => this.with(ctx, fn, undefined, ...args);
    return bound as unknown as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    return this;
  }
}

// Registered once per process, when the first module needing it loads.
context.setGlobalContextManager(new ScopeContextManager());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

/** The tracer while an exporter runs (tracing-sdk.ts); undefined means nothing is recorded. */
let recordingTracer: Tracer | undefined;

export function setRecordingTracer(tracer: Tracer | undefined): void {
  recordingTracer = tracer;
}

/** True while spans are recorded and exported. Callers skip building span names and attributes otherwise. */
export function tracingEnabled(): boolean {
  return recordingTracer !== undefined;
}

const ID_BYTES = Buffer.allocUnsafe(16);

/** Random lowercase hex, as OpenTelemetry's own id generator makes it (not for secrets). */
function randomHex(byteCount: 8 | 16): string {
  for (let i = 0; i < byteCount; i += 4) ID_BYTES.writeUInt32BE((Math.random() * 0x1_0000_0000) >>> 0, i);
  // An all-zero id is invalid in W3C trace context; one fixed bit rules it out.
  ID_BYTES[byteCount - 1] = (ID_BYTES[byteCount - 1] ?? 0) | 1;
  return ID_BYTES.toString('hex', 0, byteCount);
}

/** Something gRPC metadata-shaped: a multi-valued map of string keys. */
export interface MetadataCarrier {
  get(key: string): ReadonlyArray<string | Buffer>;
  set(key: string, value: string): void;
}

const metadataGetter: TextMapGetter<MetadataCarrier> = {
  get: (carrier, key) => {
    const value = carrier.get(key)[0];
    return typeof value === 'string' ? value : undefined;
  },
  // Only the W3C keys are read; nothing enumerates.
  keys: () => [],
};

const metadataSetter: TextMapSetter<MetadataCarrier> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/** The caller's trace context from HTTP request headers (ROOT_CONTEXT when there is none). */
export function contextFromHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Context {
  return propagation.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
}

/** The caller's trace context from gRPC metadata (ROOT_CONTEXT when there is none). */
export function contextFromMetadata(metadata: MetadataCarrier): Context {
  return propagation.extract(ROOT_CONTEXT, metadata, metadataGetter);
}

/** Adds a scope's trace context (else the current one) to outgoing gRPC metadata (nothing outside a trace). */
export function injectTraceContext(metadata: MetadataCarrier, scope?: RequestScope): void {
  propagation.inject((scope?.trace as Context | undefined) ?? context.active(), metadata, metadataSetter);
}

/** A request scope with the server span it runs under. */
export interface TracedScope extends RequestScope {
  readonly span: Span;
}

export interface ServerSpanOptions {
  /** The span's name; only read while tracing is enabled. */
  name: string;
  attributes?: Attributes;
}

/**
 * The scope a request or call is handled in: a server span under the caller's context, or,
 * while nothing is recorded, the caller's span context passed on as it is (a fresh trace when
 * the caller sent none), so a recording service further on still links to the right parent.
 */
export function startServerScope(parent: Context, requestId: string | undefined, options: ServerSpanOptions): TracedScope {
  if (recordingTracer) {
    const span = recordingTracer.startSpan(options.name, { kind: SpanKind.SERVER, attributes: options.attributes }, parent);
    return { requestId, traceId: span.spanContext().traceId, trace: trace.setSpan(parent, span), span };
  }
  const caller = trace.getSpan(parent);
  if (caller && isSpanContextValid(caller.spanContext())) {
    return { requestId, traceId: caller.spanContext().traceId, trace: parent, span: caller };
  }
  const span = trace.wrapSpanContext({ traceId: randomHex(16), spanId: randomHex(8), traceFlags: TraceFlags.NONE });
  return { requestId, traceId: span.spanContext().traceId, trace: trace.setSpan(parent, span), span };
}

/** Ends a scope's span; a failure marks it as an error. */
export function endServerScope(scope: TracedScope, failure?: string, attributes?: Attributes): void {
  const { span } = scope;
  if (!span.isRecording()) return;
  if (attributes) span.setAttributes(attributes);
  if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  span.end();
}

/**
 * Records a finished client call (an upstream request) as a span under the current context,
 * from times already taken with performance.now(), so nothing is timed twice. No-op while
 * tracing is off.
 */
export function recordClientSpan(name: string, startedAt: number, endedAt: number, attributes: Attributes, failure?: string): void {
  if (!recordingTracer) return;
  const span = recordingTracer.startSpan(name, { kind: SpanKind.CLIENT, startTime: startedAt, attributes }, context.active());
  if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  span.end(endedAt);
}
