import { DEFAULT_PORTS, runAlone, serviceAddress } from '@gateway/runtime';
import { startEdge } from './server.js';

/** Runs the edge as its own process; the services' addresses come from the environment. */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('edge', env, async ({ config, bus, logger }) => startEdge({
    config, bus, logger,
    adminToken: env.ADMIN_TOKEN || undefined,
    host: env.HOST ?? '0.0.0.0',
    port: Number(env.PORT ?? DEFAULT_PORTS.edge),
    services: { accounting: serviceAddress('accounting', env), chat: serviceAddress('chat', env), video: serviceAddress('video', env) },
  }));
}
