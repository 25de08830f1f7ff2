import { AccountingClient, accountingBudget } from '@gateway/contracts';
import { grpcListenAddress, runAlone, serviceAddress, withProcessTelemetry } from '@gateway/runtime';
import { startVideo } from './server.js';

/** Runs video as its own process, configured from the environment, with /metrics on METRICS_PORT. */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('video', env, async (context) =>
    withProcessTelemetry({ name: 'video', env, logger: context.logger, metricsServer: true }, async () =>
      startVideo({
        ...context,
        store: await context.openStore(),
        budget: accountingBudget(new AccountingClient(serviceAddress('accounting', env))),
        listen: grpcListenAddress('video', env),
      }),
    ),
  );
}
