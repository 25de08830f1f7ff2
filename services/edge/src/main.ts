import { InProcessBus } from '@gateway/bus';
import { createLogger } from '@gateway/logging';
import { closeOnSignal, DEFAULT_PORTS, resolveConfig, serviceAddress } from '@gateway/runtime';
import { startEdge } from './server.js';

/** Runs the edge as its own process; the services' addresses come from the environment. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const logger = createLogger({ name: 'edge' });
  const { config, usedExample } = await resolveConfig(env);
  if (usedExample) logger.info({ config: config.source }, 'no gateway.yaml found; using the shipped example configuration');
  const bus = new InProcessBus({ logger });
  const service = await startEdge({
    config, bus, logger,
    adminToken: env.ADMIN_TOKEN,
    host: env.HOST ?? '0.0.0.0',
    port: Number(env.PORT ?? DEFAULT_PORTS.edge),
    services: { accounting: serviceAddress('accounting', env), chat: serviceAddress('chat', env), video: serviceAddress('video', env) },
  });
  closeOnSignal(logger, async () => {
    await service.close();
    await bus.close();
  });
}
