import type { Bus } from '@gateway/bus';
import type { FastifyPluginAsync } from 'fastify';
import type { Downstream } from '../downstream.js';

export interface HealthRoutesOptions {
  downstream: Downstream;
  bus: Bus;
  /** True once shutdown began: readiness fails at once so load balancers stop sending. */
  isClosing: () => boolean;
}

/**
 * Liveness: the process answers. Readiness: the bus is connected and every service reports
 * SERVING over grpc.health.v1 (accounting and video report NOT_SERVING while their store is
 * down). The body names each check, so an operator sees what is down.
 */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { downstream, bus, isClosing }) => {
  app.get('/health/liveness', async () => ({ status: 'ok' }));

  app.get('/health/readiness', async (_request, reply) => {
    const [busUp, services] = await Promise.all([
      bus.ping().then(
        () => true,
        () => false,
      ),
      downstream.health(),
    ]);
    const checks: Record<string, string> = { bus: busUp ? 'up' : 'down' };
    for (const [name, status] of Object.entries(services)) {
      checks[name] = status === 'SERVING' ? 'up' : status === 'NOT_SERVING' ? 'not_serving' : 'unreachable';
    }
    if (isClosing()) checks.edge = 'shutting_down';
    const down = Object.entries(checks)
      .filter(([, state]) => state !== 'up')
      .map(([name]) => name);
    return reply.code(down.length === 0 ? 200 : 503).send({ status: down.length === 0 ? 'ready' : 'unavailable', checks, down });
  });
};
