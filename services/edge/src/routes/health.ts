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
 * Liveness: the process answers. Readiness: the edge can serve requests, which is: it can
 * authenticate (accounting SERVING, and through it its store) and at least one of chat and video
 * serves. One route's service down, or the bus away (the outbox keeps events until it is back),
 * takes no edge out of rotation: the body says `degraded` and names what is down, while the other
 * routes keep working. Shutting down is never ready.
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
    const ready = !isClosing() && checks.accounting === 'up' && (checks.chat === 'up' || checks.video === 'up');
    const status = !ready ? 'unavailable' : down.length === 0 ? 'ready' : 'degraded';
    return reply.code(ready ? 200 : 503).send({ status, checks, down });
  });
};
