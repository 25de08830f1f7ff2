import { serveGrpc, type RunningService } from '@gateway/runtime';
import { buildVideoApp, type VideoDeps } from './app.js';

export interface StartVideoOptions extends VideoDeps {
  /** host:port; port 0 picks a free one. */
  listen: string;
  /** Also serve callers in this process without a socket (RunningService.inProcessAddress). */
  inProcess?: boolean;
}

export async function startVideo(options: StartVideoOptions): Promise<RunningService> {
  const app = await buildVideoApp(options);
  return serveGrpc({
    name: 'video',
    server: app.server,
    listen: options.listen,
    ...(options.inProcess ? { inProcess: true } : {}),
    logger: options.logger,
    release: async () => {
      await app.stop();
      await options.store.close();
    },
  });
}
