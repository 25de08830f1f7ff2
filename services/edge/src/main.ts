import { DEFAULT_PORTS, runAlone, serviceAddress, withProcessTelemetry } from '@gateway/runtime';
import { startEdge } from './server.js';

/**
 * Runs the edge as its own process; the services' addresses come from the environment. startEdge
 * serves its metrics on METRICS_PORT, off the public port.
 */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('edge', env, async ({ config, bus, logger }) =>
    withProcessTelemetry({ name: 'edge', env, logger, metricsServer: false }, () =>
      startEdge({
        config,
        bus,
        logger,
        env,
        adminToken: env.ADMIN_TOKEN || undefined,
        host: env.HOST ?? '0.0.0.0',
        port: Number(env.PORT ?? DEFAULT_PORTS.edge),
        services: { accounting: serviceAddress('accounting', env), chat: serviceAddress('chat', env), video: serviceAddress('video', env) },
      }),
    ),
  );
}
