import { InProcessBus } from '@gateway/bus';
import { createLogger } from '@gateway/logging';
import { closeOnSignal, DEFAULT_PORTS, resolveConfig } from '@gateway/runtime';
import { startChat } from './server.js';

/** Runs chat as its own process, configured from the environment. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const logger = createLogger({ name: 'chat' });
  const { config, usedExample } = await resolveConfig(env);
  if (usedExample) logger.info({ config: config.source }, 'no gateway.yaml found; using the shipped example configuration');
  const bus = new InProcessBus({ logger });
  const service = await startChat({
    config, bus, logger, env, listen: `${env.GRPC_HOST ?? '0.0.0.0'}:${env.GRPC_PORT ?? DEFAULT_PORTS.chat}`,
  });
  closeOnSignal(logger, async () => {
    await service.close();
    await bus.close();
  });
}
