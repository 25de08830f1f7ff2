import { grpcListenAddress, runAlone } from '@gateway/runtime';
import { startAccounting } from './server.js';

/** Runs accounting as its own process, configured from the environment. */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('accounting', env, async (context) =>
    startAccounting({ ...context, store: await context.openStore(), listen: grpcListenAddress('accounting', env) }));
}
