import type { Socket } from 'node:net';
import { metricsListenOptions, startMetricsServer, type MetricsServer, type RunningService } from '@gateway/runtime';
import { buildEdge, type EdgeAppOptions } from './app.js';
import { Downstream, type DownstreamAddresses } from './downstream.js';
import type { Logger } from '@gateway/logging';

export interface StartEdgeOptions extends Omit<EdgeAppOptions, 'downstream' | 'isClosing' | 'isRefusing'> {
  logger: Logger;
  host: string;
  /** 0 picks a free port. */
  port: number;
  services: DownstreamAddresses;
  /**
   * Where /metrics is served, off the public port: by default METRICS_PORT (9464; 0: nowhere)
   * on `host`. Port 0 here picks a free port (tests).
   */
  metrics?: { host: string; port: number } | false;
}

/**
 * Starts the public HTTP server. close(): readiness turns 503 at once; for
 * `server.shutdown_delay_seconds` calls are still taken (load balancers and Kubernetes endpoints
 * take a few seconds to stop sending, and a refused call is a failed call); then new calls are
 * refused while the listener stays open for probes; calls and streams in flight run to their
 * end, for at most `server.shutdown_grace_seconds`; then the listener and every connection close.
 */
export async function startEdge(options: StartEdgeOptions): Promise<RunningService> {
  const downstream = new Downstream(options.services);
  let closing = false;
  let refusing = false;
  const app = await buildEdge({ ...options, downstream, isClosing: () => closing, isRefusing: () => refusing });
  // Counted on the raw server, so hijacked streams count until their last byte.
  let inFlight = 0;
  let drained: (() => void) | undefined;
  // A pipelined request still queued when its client goes away never gets a response to close;
  // its socket's close ends it, so the count stays exact (one listener per socket, not per request).
  const pending = new WeakMap<Socket, Set<() => void>>();
  app.server.on('request', (request, response) => {
    inFlight += 1;
    const socket = request.socket;
    let open = pending.get(socket);
    if (!open) {
      const calls = new Set<() => void>();
      open = calls;
      pending.set(socket, calls);
      socket.once('close', () => {
        for (const done of [...calls]) done();
      });
    }
    const calls = open;
    const done = () => {
      if (!calls.delete(done)) return;
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    };
    calls.add(done);
    response.once('close', done);
  });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.logger.info({ host: options.host, port }, 'edge listening');
  let metrics: MetricsServer | undefined;
  const metricsAt = options.metrics ?? metricsListenOptions(options.env ?? process.env, options.host);
  if (metricsAt) {
    try {
      metrics = await startMetricsServer({ ...metricsAt, logger: options.logger });
    } catch (error) {
      await app.close();
      downstream.close();
      throw error;
    }
  }
  return {
    name: 'edge',
    address: `${options.host}:${port}`,
    port,
    ...(metrics ? { metricsPort: metrics.port } : {}),
    close: async () => {
      closing = true;
      const { shutdownDelayMs } = options.config.server;
      if (shutdownDelayMs > 0) {
        options.logger.info({ delayMs: shutdownDelayMs }, 'not ready; still taking calls while load balancers stop sending');
        await new Promise((resolve) => setTimeout(resolve, shutdownDelayMs));
      }
      refusing = true;
      const graceMs = options.config.server.shutdownGraceMs;
      const deadline = Date.now() + graceMs;
      if (inFlight > 0) {
        options.logger.info({ inFlight, graceMs }, 'draining calls in flight');
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, graceMs).unref();
        });
      }
      if (inFlight > 0) options.logger.warn({ inFlight }, 'cutting calls still running after the shutdown grace');
      const cut = setTimeout(() => app.server.closeAllConnections(), Math.max(0, deadline - Date.now()));
      cut.unref();
      await app.close();
      clearTimeout(cut);
      downstream.close();
      await metrics?.close();
    },
  };
}
