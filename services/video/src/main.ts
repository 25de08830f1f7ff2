import { InProcessBus } from '@gateway/bus';
import { createLogger } from '@gateway/logging';
import { closeOnSignal, dataDir, DEFAULT_PORTS, resolveConfig } from '@gateway/runtime';
import { openStore } from '@gateway/store';
import { startVideo } from './server.js';

/** Runs video as its own process, configured from the environment. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const logger = createLogger({ name: 'video' });
  const { config, usedExample } = await resolveConfig(env);
  if (usedExample) logger.info({ config: config.source }, 'no gateway.yaml found; using the shipped example configuration');
  const store = await openStore({ mongodbUri: env.MONGODB_URI, dataDir: dataDir(env) });
  const bus = new InProcessBus({ logger });
  const service = await startVideo({
    config, store, bus, logger, env, listen: `${env.GRPC_HOST ?? '0.0.0.0'}:${env.GRPC_PORT ?? DEFAULT_PORTS.video}`,
  });
  closeOnSignal(logger, async () => {
    await service.close();
    await bus.close();
  });
}
