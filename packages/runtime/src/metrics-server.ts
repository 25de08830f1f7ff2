import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Env } from '@gateway/config';
import type { Logger } from '@gateway/logging';
import { renderMetrics, startTracing } from '@gateway/telemetry';
import { nodeHttp } from './node-http.js';
import type { RunningService, ServiceName } from './index.js';

// Every process serves its Prometheus metrics on a small plain HTTP server of its own
// (METRICS_PORT, default 9464): a gRPC service has no HTTP port, and the edge keeps the
// unauthenticated /metrics off its public port. In the all-in-one start the edge's metrics
// server answers for every service (one registry).

export const DEFAULT_METRICS_PORT = 9464;

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  logger?: Logger;
}

/** Serves GET /metrics (Prometheus text format); anything else is 404, other methods 405. */
export async function startMetricsServer({ host, port, logger }: MetricsServerOptions): Promise<MetricsServer> {
  const server: Server = nodeHttp.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        logger?.error({ err: error }, 'could not collect metrics');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics collection failed\n');
      },
    );
  });
  // Scrapers keep connections open; close() must not wait for them.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  logger?.info({ host, port: bound }, 'metrics listening on /metrics');
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Where a process serves its metrics: METRICS_PORT (default 9464; 0 turns it off) on `host`
 * (a gRPC service's GRPC_HOST, the edge's HOST).
 */
export function metricsListenOptions(
  env: Env = process.env,
  host = env.GRPC_HOST ?? '0.0.0.0',
): { host: string; port: number } | undefined {
  const raw = env.METRICS_PORT?.trim();
  const port = raw === undefined || raw === '' ? DEFAULT_METRICS_PORT : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`METRICS_PORT must be a port number (0 turns the metrics server off), not "${raw}"`);
  if (port === 0) return undefined;
  return { host, port };
}

export interface ProcessTelemetryOptions {
  name: ServiceName;
  env: Env;
  logger: Logger;
  /** Serve /metrics on METRICS_PORT (gRPC services); the edge serves it on its own port. */
  metricsServer: boolean;
}

/**
 * Runs a service as its own process with its telemetry: trace export when the environment asks
 * for it (OTEL_EXPORTER_OTLP_ENDPOINT, service name gateway-<name> unless OTEL_SERVICE_NAME), and
 * the metrics server. The returned service's close() stops them after the service itself.
 */
export async function withProcessTelemetry(
  { name, env, logger, metricsServer }: ProcessTelemetryOptions,
  start: () => Promise<RunningService>,
): Promise<RunningService> {
  const tracing = await startTracing({ env, serviceName: `gateway-${name}`, logger });
  let service: RunningService | undefined;
  let metrics: MetricsServer | undefined;
  try {
    service = await start();
    const listen = metricsServer ? metricsListenOptions(env) : undefined;
    if (listen) metrics = await startMetricsServer({ ...listen, logger });
  } catch (error) {
    await service?.close().catch(() => undefined);
    await tracing.shutdown();
    throw error;
  }
  const running = service;
  return {
    name: running.name,
    address: running.address,
    port: running.port,
    ...(running.metricsPort === undefined ? {} : { metricsPort: running.metricsPort }),
    close: async () => {
      try {
        await running.close();
      } finally {
        await metrics?.close();
        await tracing.shutdown();
      }
    },
  };
}
