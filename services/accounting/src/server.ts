import { serveGrpc, type RunningService } from '@gateway/runtime';
import { buildAccountingApp, type AccountingDeps } from './app.js';

export interface StartAccountingOptions extends AccountingDeps {
  /** host:port; port 0 picks a free one. */
  listen: string;
  /** Also serve callers in this process without a socket (RunningService.inProcessAddress). */
  inProcess?: boolean;
}

export async function startAccounting(options: StartAccountingOptions): Promise<RunningService> {
  const app = await buildAccountingApp(options);
  return serveGrpc({
    name: 'accounting',
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
