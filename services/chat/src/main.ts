import { AccountingClient, accountingBudget, BudgetLeases } from '@gateway/contracts';
import { grpcListenAddress, runAlone, serviceAddress, withProcessTelemetry } from '@gateway/runtime';
import { accountingResponseStore } from './responses/storage.js';
import { startChat } from './server.js';

/** Runs chat as its own process, configured from the environment, with /metrics on METRICS_PORT. */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('chat', env, async (context) =>
    withProcessTelemetry({ name: 'chat', env, logger: context.logger, metricsServer: true }, () => {
      const accounting = new AccountingClient(serviceAddress('accounting', env));
      return startChat({
        ...context,
        budget: new BudgetLeases(accounting, accountingBudget(accounting)),
        // Stored responses live with accounting, so any replica continues any conversation.
        responseStore: accountingResponseStore(accounting),
        listen: grpcListenAddress('chat', env),
      });
    }),
  );
}
