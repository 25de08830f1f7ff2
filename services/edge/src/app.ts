import { randomUUID } from 'node:crypto';
import type { Bus } from '@gateway/bus';
import { decodeKeyChangedEvent, KEYS_CHANGED_SUBJECT } from '@gateway/contracts';
import { busEventsRejectedSeries, setDownstreamUp } from '@gateway/telemetry';
import type { Env, GatewayConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import { KeyAuthenticator, presentedAuthorization, refuseSeveralAuthorizations, type AuthenticatedKey } from './auth.js';
import { ModelCatalog } from './catalog.js';
import { onClientError, onConnect, onFrameworkError, onUnmetExpectation } from './client-errors.js';
import { videoCreateDeadlineMs } from './deadlines.js';
import { DEFAULT_WATCH, type Downstream, type WatchOptions } from './downstream.js';
import { errorHandling, sendError } from './errors.js';
import { adminRoutes } from './routes/admin.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { healthRoutes } from './routes/health.js';
import { modelsRoutes } from './routes/models.js';
import { usageRoutes } from './routes/usage.js';
import { chatRoutes } from './routes/chat.js';
import { messagesRoutes } from './routes/messages.js';
import { responsesRoutes } from './routes/responses.js';
import { storedResponsesRoutes } from './routes/stored-responses.js';
import { videoRoutes } from './routes/videos.js';
import { callContext, edgeTelemetry } from './telemetry.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller of a /v1 route. */
    apiKey: AuthenticatedKey;
  }
}

export interface EdgeAppOptions {
  config: GatewayConfig;
  downstream: Downstream;
  bus: Bus;
  /** Admin routes exist only when this is a non-empty string. */
  adminToken: string | undefined;
  /** True once shutdown began: readiness fails. */
  isClosing?: () => boolean;
  /** True once the pre-stop delay is over: new calls are refused. Defaults to isClosing. */
  isRefusing?: () => boolean;
  /** Where the trace exporter variables are read; defaults to process.env. */
  env?: Env;
  /** The background probes of the internal services (tests make them quicker). */
  watch?: Partial<Omit<WatchOptions, 'onChange'>>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A whole request, body included (16 MiB at a slow link's pace). */
const REQUEST_TIMEOUT_MS = 120_000;
/** The request line and headers. */
const HEADERS_TIMEOUT_MS = 30_000;

/** Fastify's own options for the edge: body limit, request ids, quiet per-request logging. */
export function edgeServerOptions(config: GatewayConfig, logger: Logger): FastifyServerOptions {
  return {
    loggerInstance: logger,
    // Per-request info lines cost real CPU at thousands of requests per second.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    // No child logger per request (an allocation on every call); lines that need the request
    // id carry it themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: config.server.bodyLimitBytes,
    // A caller's own request id is kept when it looks like one; otherwise a fresh one.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    keepAliveTimeout: 72_000,
    requestTimeout: REQUEST_TIMEOUT_MS,
    routerOptions: { ignoreTrailingSlash: true },
    // Every answer is OpenAI-shaped, those given before a route runs too (client-errors.ts).
    clientErrorHandler: onClientError,
    frameworkErrors: onFrameworkError,
    // Fastify hands `http` to http.createServer; its types do not list it. A request without
    // Host reaches the routes (and their shaped answers) rather than Node's bare 400. The
    // timeouts must be given here, at construction: set afterwards (as Fastify sets
    // requestTimeout) Node still closes slow headers but never a body that stops arriving.
    // Slow clients then get a shaped 408 (client-errors.ts), checked for every 5 s.
    ...({
      http: {
        requireHostHeader: false,
        requestTimeout: REQUEST_TIMEOUT_MS,
        headersTimeout: HEADERS_TIMEOUT_MS,
        connectionsCheckingInterval: 5000,
      },
    } as Record<string, unknown>),
    // A schema that forbids unknown fields means it: they are refused, not silently stripped.
    ajv: { customOptions: { removeAdditional: false } },
  };
}

/** The edge as a Fastify plugin: every route, the error shape and authentication. */
export const edgeApp: FastifyPluginAsync<EdgeAppOptions> = async (app, options) => {
  const { config, downstream, bus, adminToken } = options;
  const isClosing = options.isClosing ?? (() => false);
  const isRefusing = options.isRefusing ?? isClosing;
  const authenticator = new KeyAuthenticator(downstream.accounting, config.server.keyCacheTtlMs);
  const catalog = new ModelCatalog(downstream, config.server.modelsCacheTtlMs, app.log);

  const keyChanges = await bus.subscribe<unknown>(KEYS_CHANGED_SUBJECT, (data, subject) => {
    try {
      const change = decodeKeyChangedEvent(data, subject);
      if (change.key_id) authenticator.forget(change.key_id);
      if (change.team_id) authenticator.forgetTeam(change.team_id);
    } catch (error) {
      // A malformed broadcast names no key to drop; cached keys still expire within the TTL.
      busEventsRejectedSeries(subject).inc();
      app.log.warn({ err: error, subject }, 'malformed key-change event; ignored');
    }
  });
  app.addHook('onClose', async () => keyChanges.close());

  const watch = { ...DEFAULT_WATCH, ...options.watch };
  downstream.watch({
    ...watch,
    onChange: (service, state, previous) => {
      if (state === 'up') app.log.info({ service, previous }, 'internal service back: its routes serve again');
      else app.log.warn({ service, state }, 'internal service down: its routes answer 503 at once until it is back');
    },
  });
  // The bus in the same gauges (its outages are logged by the bus itself).
  const busProbe = setInterval(() => {
    const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer')), watch.deadlineMs).unref());
    Promise.race([bus.ping(), deadline]).then(
      () => setDownstreamUp('bus', true),
      () => setDownstreamUp('bus', false),
    );
  }, watch.intervalMs);
  busProbe.unref();
  app.addHook('onClose', async () => {
    clearInterval(busProbe);
    downstream.unwatch();
  });

  await app.register(errorHandling);
  app.server.on('checkExpectation', onUnmetExpectation);
  app.server.on('connect', onConnect);
  const env = options.env ?? process.env;
  await app.register(edgeTelemetry, { bus, env, publicMetrics: /^(1|true|yes)$/i.test(env.METRICS_ON_PUBLIC_PORT?.trim() ?? '') });
  // Bodies are JSON; anything else is refused with 415 rather than parsed as text.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // Shutting down: calls already running finish; new ones are refused (503, which SDKs retry
    // elsewhere) while probes still get their answer, readiness saying unavailable.
    if (isRefusing() && !request.url.startsWith('/health/')) {
      reply.header('connection', 'close');
      sendError(reply, new GatewayError('service_unavailable', { message: 'This gateway instance is shutting down; retry the request.' }));
      return;
    }
    done();
  });

  await app.register(healthRoutes, { downstream, bus, isClosing });
  // The usage dashboard's static page; what it shows comes from the API routes below.
  await app.register(dashboardRoutes, { admin: Boolean(adminToken) });

  // Everything under /v1 needs a key.
  await app.register(async (v1) => {
    v1.decorateRequest('apiKey', undefined as unknown as AuthenticatedKey);
    v1.addHook('onRequest', async (request) => {
      refuseSeveralAuthorizations(request.raw.rawHeaders);
      // Every /v1 call needs accounting (the key, its budget), so none waits on it while it is down.
      downstream.refuseWhileDown('accounting');
      request.apiKey = await authenticator.authenticate(presentedAuthorization(request.headers), callContext(request));
    });
    await v1.register(modelsRoutes, { catalog });
    await v1.register(usageRoutes, { downstream, catalog });
    const attemptsMs = config.router.timeoutMs * (config.router.retries + 1);
    const chatCalls = {
      downstream,
      catalog,
      // Every attempt of the group and one fallback fit in the deadline.
      unaryDeadlineMs: 2 * attemptsMs + 5000,
      streamDeadlineMs: 2 * attemptsMs + config.server.maxStreamMs,
      stallTimeoutMs: config.server.stallTimeoutMs,
    };
    await v1.register(chatRoutes, chatCalls);
    await v1.register(responsesRoutes, { ...chatCalls, storeResponses: config.responses.store });
    await v1.register(storedResponsesRoutes, { downstream });
    await v1.register(messagesRoutes, { ...chatCalls, pingIntervalMs: config.server.pingIntervalMs });
    await v1.register(videoRoutes, {
      downstream,
      catalog,
      stallTimeoutMs: config.server.stallTimeoutMs,
      downloadsPerKey: config.server.downloadsPerKey,
      createDeadlineMs: videoCreateDeadlineMs(config),
    });
  });

  if (adminToken) {
    await app.register(adminRoutes, { downstream, adminToken });
  } else {
    app.log.info('admin API off: set ADMIN_TOKEN to enable /admin/v1/keys');
  }
};

/** A ready-to-listen (or inject) edge. */
export async function buildEdge(options: EdgeAppOptions & { logger: Logger }): Promise<FastifyInstance> {
  const app = Fastify(edgeServerOptions(options.config, options.logger));
  await app.register(edgeApp, options);
  await app.ready();
  return app;
}
