import { serveGrpc, type RunningService } from '@gateway/runtime';
import { buildChatApp, type ChatDeps } from './app.js';

export interface StartChatOptions extends ChatDeps {
  /** host:port; port 0 picks a free one. */
  listen: string;
  /** Also serve callers in this process without a socket (RunningService.inProcessAddress). */
  inProcess?: boolean;
}

export async function startChat(options: StartChatOptions): Promise<RunningService> {
  const app = await buildChatApp(options);
  return serveGrpc({
    name: 'chat',
    server: app.server,
    listen: options.listen,
    ...(options.inProcess ? { inProcess: true } : {}),
    logger: options.logger,
    release: async () => {
      await app.stop();
    },
  });
}
