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
  }
}

/** The route label of a request no route matched (its raw path never becomes a label). */
const UNMATCHED_ROUTE = 'unmatched';
/** Span options while nothing is recorded: the name is not read. */
const NO_SPAN: ServerSpanOptions = { name: '' };
const DEBUG_LEVELS = new Set(['debug', 'trace']);

export interface EdgeTelemetryOptions {
  bus: BusStatsSource;
  /** Where the exporter variables are read (OTEL_EXPORTER_OTLP_ENDPOINT, ...). */
  env: TracingEnv;
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}

function spanOptions(request: FastifyRequest): ServerSpanOptions {
  const route = routeOf(request);
  return { name: `${request.method} ${route}`, attributes: { 'http.request.method': request.method, 'http.route': route } };
}

/** Counts and times a finished request, observes the overhead of a plain chat call, ends its span. */
function recordResponse(request: FastifyRequest, reply: FastifyReply): void {
  const route = routeOf(request);
  const status = reply.statusCode;
  // Fastify took the start time when the request arrived; nothing here times twice.
  const seconds = reply.elapsedTime / 1000;
  const series = httpRequestSeries(route, request.metricsGroup, status);
  series.requests.inc();
  series.duration.observe(seconds);
  if (request.upstreamMs >= 0 && status === 200) overheadSeries(route).observe(Math.max(0, seconds - request.upstreamMs / 1000));
  const scope = request.telemetry;
  if (!scope) return;
  if (scope.span.isRecording()) scope.span.setAttribute('http.response.status_code', status);
  endServerScope(scope, status >= 500 ? `HTTP ${status}` : undefined);
  if (DEBUG_LEVELS.has(request.log.level)) {
    runInScope(scope, () => request.log.debug({ route, status, ms: Math.round(seconds * 1e6) / 1000 }, 'request completed'));
  }
}

/**
 * The overhead of a stream, at its first event: the edge's time to it minus the chat service's
 * time to the upstream's first chunk.
 */
export function observeStreamOverhead(request: FastifyRequest, reply: FastifyReply, upstreamMs: number): void {
  overheadSeries(routeOf(request)).observe(Math.max(0, (reply.elapsedTime - upstreamMs) / 1000));
}

/** What an onward call (gRPC, catalog) carries of the request: its id and its scope. */
export function callContext(request: FastifyRequest): CallContext {
  return { requestId: request.id, scope: request.telemetry ?? undefined };
}

/**
 * The request scope, the HTTP metrics and GET /metrics (unauthenticated: operators keep it off
 * the public network), and trace export when the environment asks for it. Wrapped by
 * fastify-plugin: its hooks and request decorations must reach every route of the edge.
 */
export const edgeTelemetry = fp<EdgeTelemetryOptions>(
  async (app, { bus, env }) => {
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

    app.get('/metrics', async (_request, reply) => {
      const { contentType, body } = await renderMetrics();
      return reply.type(contentType).send(body);
    });
  },
  { name: 'edge-telemetry', fastify: '5.x' },
);
