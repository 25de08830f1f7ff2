import { serveGrpc, type RunningService } from '@gateway/runtime';
import { buildVideoApp, type VideoDeps } from './app.js';

export interface StartVideoOptions extends VideoDeps {
  /** host:port; port 0 picks a free one. */
  listen: string;
}

export async function startVideo(options: StartVideoOptions): Promise<RunningService> {
  const app = await buildVideoApp(options);
  return serveGrpc({
    name: 'video',
    server: app.server,
    listen: options.listen,
    logger: options.logger,
    release: async () => {
      await app.stop();
      await options.store.close();
    },
  });
}
