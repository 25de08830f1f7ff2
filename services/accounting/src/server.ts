import type { RunningService } from '@gateway/runtime';
import { buildAccountingApp, type AccountingDeps } from './app.js';

export interface StartAccountingOptions extends AccountingDeps {
  /** host:port; port 0 picks a free one. */
  listen: string;
}

export async function startAccounting(options: StartAccountingOptions): Promise<RunningService> {
  const app = await buildAccountingApp(options);
  const port = await app.server.listen(options.listen);
  const host = options.listen.slice(0, options.listen.lastIndexOf(':'));
  options.logger.info({ port }, 'accounting listening');
  return {
    name: 'accounting',
    address: `${host}:${port}`,
    port,
    close: async () => {
      await app.server.close();
      await app.stop();
      await options.store.close();
    },
  };
}
