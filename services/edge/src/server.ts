import type { RunningService } from '@gateway/runtime';
import { buildEdge, type EdgeAppOptions } from './app.js';
import { Downstream, type DownstreamAddresses } from './downstream.js';
import type { Logger } from '@gateway/logging';

export interface StartEdgeOptions extends Omit<EdgeAppOptions, 'downstream' | 'isClosing'> {
  logger: Logger;
  host: string;
  /** 0 picks a free port. */
  port: number;
  services: DownstreamAddresses;
}

/** Starts the public HTTP server; close() turns readiness 503, drains requests, then disconnects. */
export async function startEdge(options: StartEdgeOptions): Promise<RunningService> {
  const downstream = new Downstream(options.services);
  let closing = false;
  const app = await buildEdge({ ...options, downstream, isClosing: () => closing });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.logger.info({ host: options.host, port }, 'edge listening');
  return {
    name: 'edge',
    address: `${options.host}:${port}`,
    port,
    close: async () => {
      closing = true;
      await app.close();
      downstream.close();
    },
  };
}
