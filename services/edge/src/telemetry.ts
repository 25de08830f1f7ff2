import { runInScope } from '@gateway/logging';
import {
  contextFromHeaders,
  endServerScope,
  httpRequestSeries,
  observeBus,
  overheadSeries,
  renderMetrics,
  startServerScope,
  startTracing,
  tracingEnabled,
  type BusStatsSource,
  type ServerSpanOptions,
  type TracedScope,
  type TracingEnv,
} from '@gateway/telemetry';
import type { CallContext } from '@gateway/grpc';
import type { MeteredUsage__Output } from '@gateway/protos';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// The edge's share of observability: every request runs in a scope (its request id and trace,
// continued from the caller's `traceparent` or started here), is counted and timed by route
// pattern, model group and status, and GET /metrics exposes the process's registry, which in
// the all-in-one start holds every service's series.

declare module 'fastify' {
  interface FastifyRequest {
    /** The served group a chat or video request resolved to ('' until then): the `group` label. */
    metricsGroup: string;
    /** Upstream milliseconds of a successful plain chat call, or -1: the overhead is measured from it. */
    upstreamMs: number;
    /** The request's scope: its id and trace, read by log lines and by onward gRPC calls. */
    telemetry: TracedScope | null;
    /** The gateway's own milliseconds (to the answer, or to a stream's first event), or -1: the access line's overheadMs. */
    overheadMs: number;
    /** A chat call's tokens and price as metered, for the access line. */
    meteredUsage: MeteredUsage__Output | null;
    /** The stable code of the error the request ended with ('' when none). */
    errorCode: string;
    /** A chat stream's 200 went out: from then on the upstream is producing what will be billed. */
    streamStarted: boolean;
  }
}

/** The route label of a request no route matched (its raw path never becomes a label). */
const UNMATCHED_ROUTE = 'unmatched';
/** Span options while nothing is recorded: the name is not read. */
const NO_SPAN: ServerSpanOptions = { name: '' };

export interface EdgeTelemetryOptions {
  bus: BusStatsSource;
  /** Where the exporter variables are read (OTEL_EXPORTER_OTLP_ENDPOINT, ...). */
  env: TracingEnv;
  /** Also answer GET /metrics on the public port (METRICS_ON_PUBLIC_PORT=true); off by default. */
  publicMetrics: boolean;
}

/** Milliseconds to a tenth, as log lines show them. */
function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * The access line: one per request, at info (probes and scrapes at debug, so a cluster's
 * health checks do not drown the log). Everything an operator needs to follow a call: who, which
 * group, what came back, how long, how much of it was the gateway, and what it cost.
 */
function logAccess(request: FastifyRequest, route: string, status: number, ms: number): void {
  const quiet = route.startsWith('/health/') || route === '/metrics';
  // The edge's logger is pino (edgeServerOptions' loggerInstance), which can say what it writes.
  const log = request.log as typeof request.log & { isLevelEnabled(level: string): boolean };
  if (!log.isLevelEnabled(quiet ? 'debug' : 'info')) return;
  const usage = request.meteredUsage;
  const key = (request as { apiKey?: { key?: { id?: string } } }).apiKey?.key?.id;
  const id = (request.params as { id?: unknown } | undefined)?.id;
  const line = {
    requestId: request.id,
    traceId: request.telemetry?.traceId,
    method: request.method,
    route,
    ...(typeof id === 'string' ? { resource: id } : {}),
    status,
    ms: tenths(ms),
    ...(request.overheadMs >= 0 ? { overheadMs: tenths(request.overheadMs) } : {}),
    ...(key ? { keyId: key } : {}),
    ...(request.metricsGroup ? { group: request.metricsGroup } : {}),
    ...(request.errorCode ? { code: request.errorCode } : {}),
    ...(usage
      ? {
          promptTokens: usage.prompt_tokens,
          cachedTokens: usage.cached_tokens,
          completionTokens: usage.completion_tokens,
          reasoningTokens: usage.reasoning_tokens,
          costUsd: usage.cost_nano_usd / 1e9,
          cacheSavedUsd: usage.cache_saved_nano_usd / 1e9,
          ...(usage.estimated ? { estimated: true } : {}),
        }
      : leftStream(request)
        ? { estimated: true }
        : {}),
  };
  if (quiet) log.debug(line, 'request');
  else log.info(line, 'request');
}

/**
 * The caller left a stream (or was cut for not reading) after it started and before its metered
 * end: the chat service bills what the upstream had sent on its own count (its line "chat call
 * billed on an estimate", same requestId, has the figures).
 */
function leftStream(request: FastifyRequest): boolean {
  return request.streamStarted && !request.meteredUsage && !request.errorCode;
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}

function spanOptions(request: FastifyRequest): ServerSpanOptions {
  const route = routeOf(request);
  return { name: `${request.method} ${route}`, attributes: { 'http.request.method': request.method, 'http.route': route } };
}

/** Requests already counted and logged: a stream's caller leaving and Fastify's own end must not both count it. */
const recorded = new WeakSet<FastifyRequest>();

/**
 * The end of a stream whose caller left (or was cut for not reading): Fastify runs onResponse
 * only when a response finishes or fails, so this one is counted and logged here.
 */
export function recordLeftStream(request: FastifyRequest, reply: FastifyReply): void {
  recordResponse(request, reply);
}

/** Counts and times a finished request, observes the overhead of a plain chat call, ends its span. */
function recordResponse(request: FastifyRequest, reply: FastifyReply): void {
  if (recorded.has(request)) return;
  recorded.add(request);
  const route = routeOf(request);
  const status = reply.statusCode;
  // Fastify took the start time when the request arrived; nothing here times twice.
  const seconds = reply.elapsedTime / 1000;
  const series = httpRequestSeries(route, request.metricsGroup, status);
  series.requests.inc();
  series.duration.observe(seconds);
  if (request.upstreamMs >= 0 && status === 200) {
    request.overheadMs = Math.max(0, reply.elapsedTime - request.upstreamMs);
    overheadSeries(route).observe(request.overheadMs / 1000);
  }
  logAccess(request, route, status, reply.elapsedTime);
  const scope = request.telemetry;
  if (!scope) return;
  if (scope.span.isRecording()) scope.span.setAttribute('http.response.status_code', status);
  endServerScope(scope, status >= 500 ? `HTTP ${status}` : undefined);
}

/**
 * The overhead of a stream, at its first event: the edge's time to it minus the chat service's
 * time to the upstream's first chunk.
 */
export function observeStreamOverhead(request: FastifyRequest, reply: FastifyReply, upstreamMs: number): void {
  request.overheadMs = Math.max(0, reply.elapsedTime - upstreamMs);
  overheadSeries(routeOf(request)).observe(request.overheadMs / 1000);
}

/** What an onward call (gRPC, catalog) carries of the request: its id and its scope. */
export function callContext(request: FastifyRequest): CallContext {
  return { requestId: request.id, scope: request.telemetry ?? undefined };
}

/**
 * The request scope, the HTTP metrics, the access line, GET /metrics on the public port when
 * asked, and trace export when the environment asks for it. Wrapped by
 * fastify-plugin: its hooks and request decorations must reach every route of the edge.
 */
export const edgeTelemetry = fp<EdgeTelemetryOptions>(
  async (app, { bus, env, publicMetrics }) => {
    // In the all-in-one start this is the process's one start of trace export (the services
    // share it); a service run alone has already started it in its main().
    const tracing = await startTracing({ env, serviceName: 'gateway', logger: app.log });
    const unobserveBus = observeBus(bus);
    app.addHook('onClose', async () => {
      unobserveBus();
      await tracing.shutdown();
    });

    app.decorateRequest('metricsGroup', '');
    app.decorateRequest('upstreamMs', -1);
    app.decorateRequest('telemetry', null);
    app.decorateRequest('overheadMs', -1);
    app.decorateRequest('meteredUsage', null);
    app.decorateRequest('errorCode', '');
    app.decorateRequest('streamStarted', false);
    app.addHook('onRequest', (request, _reply, done) => {
      const scope = startServerScope(contextFromHeaders(request.headers), request.id, tracingEnabled() ? spanOptions(request) : NO_SPAN);
      request.telemetry = scope;
      runInScope(scope, done);
    });
    // A body arrives in socket events, outside the scope; the handler runs inside it again.
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.telemetry) runInScope(request.telemetry, done);
      else done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      recordResponse(request, reply);
      done();
    });

    // Unauthenticated, so by default only on the metrics port (METRICS_PORT), never the public one.
    if (publicMetrics) {
      app.get('/metrics', async (_request, reply) => {
        const { contentType, body } = await renderMetrics();
        return reply.type(contentType).send(body);
      });
    }
  },
  { name: 'edge-telemetry', fastify: '5.x' },
);
