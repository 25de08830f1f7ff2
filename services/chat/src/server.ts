import type { RunningService } from '@gateway/runtime';
import { buildChatApp, type ChatDeps } from './app.js';

export interface StartChatOptions extends ChatDeps {
  /** host:port; port 0 picks a free one. */
  listen: string;
}

export async function startChat(options: StartChatOptions): Promise<RunningService> {
  const app = await buildChatApp(options);
  const port = await app.server.listen(options.listen);
  const host = options.listen.slice(0, options.listen.lastIndexOf(':'));
  options.logger.info({ port }, 'chat listening');
  return {
    name: 'chat',
    address: `${host}:${port}`,
    port,
    close: async () => {
      await app.server.close();
      await app.stop();
    },
  };
}
