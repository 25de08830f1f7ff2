import { serveGrpc, type RunningService } from '@gateway/runtime';
import { buildAccountingApp, type AccountingDeps } from './app.js';

export interface StartAccountingOptions extends AccountingDeps {
  /** host:port; port 0 picks a free one. */
  listen: string;
}

export async function startAccounting(options: StartAccountingOptions): Promise<RunningService> {
  const app = await buildAccountingApp(options);
  return serveGrpc({
    name: 'accounting',
    server: app.server,
    listen: options.listen,
    logger: options.logger,
    release: async () => {
      await app.stop();
      await options.store.close();
    },
  });
}
