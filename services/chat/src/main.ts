import { AccountingClient, accountingBudget, BudgetLeases } from '@gateway/accounting';
import { grpcListenAddress, runAlone, serviceAddress } from '@gateway/runtime';
import { startChat } from './server.js';

/** Runs chat as its own process, configured from the environment. */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('chat', env, async (context) => {
    const accounting = new AccountingClient(serviceAddress('accounting', env));
    return startChat({ ...context, budget: new BudgetLeases(accounting, accountingBudget(accounting)), listen: grpcListenAddress('chat', env) });
  });
}
