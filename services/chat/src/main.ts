import { grpcListenAddress, runAlone } from '@gateway/runtime';
import { startChat } from './server.js';

/** Runs chat as its own process, configured from the environment. */
export function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runAlone('chat', env, async (context) =>
    startChat({ ...context, listen: grpcListenAddress('chat', env) }));
}
