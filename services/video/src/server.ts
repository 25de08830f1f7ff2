import type { RunningService } from '@gateway/runtime';
import { buildVideoApp, type VideoDeps } from './app.js';

export interface StartVideoOptions extends VideoDeps {
  /** host:port; port 0 picks a free one. */
  listen: string;
}

export async function startVideo(options: StartVideoOptions): Promise<RunningService> {
  const app = await buildVideoApp(options);
  const port = await app.server.listen(options.listen);
  const host = options.listen.slice(0, options.listen.lastIndexOf(':'));
  options.logger.info({ port }, 'video listening');
  return {
    name: 'video',
    address: `${host}:${port}`,
    port,
    close: async () => {
      await app.server.close();
      await app.stop();
      await options.store.close();
    },
  };
}
