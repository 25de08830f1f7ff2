import { grpcListenAddress, runAlone, withProcessTelemetry } from '@gateway/runtime';
import { startAccounting } from './server.js';

/** Runs accounting as its own process, configured from the environment, with /metrics on METRICS_PORT. */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('accounting', env, async (context) =>
    withProcessTelemetry({ name: 'accounting', env, logger: context.logger, metricsServer: true }, async () =>
      startAccounting({ ...context, store: await context.openStore(), listen: grpcListenAddress('accounting', env) }),
    ),
  );
}
