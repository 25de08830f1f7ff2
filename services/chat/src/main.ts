import { AccountingClient, accountingBudget } from '@gateway/accounting';
import { grpcListenAddress, runAlone, serviceAddress } from '@gateway/runtime';
import { startChat } from './server.js';

/** Runs chat as its own process, configured from the environment. */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('chat', env, async (context) =>
    startChat({ ...context, budget: accountingBudget(new AccountingClient(serviceAddress('accounting', env))), listen: grpcListenAddress('chat', env) }));
}
