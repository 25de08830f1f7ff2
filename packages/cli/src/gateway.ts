import { startAccounting } from '@gateway/accounting';
import { AccountingClient, accountingBudget, BudgetLeases } from '@gateway/contracts';
import type { Bus } from '@gateway/bus';
import { accountingResponseStore, startChat } from '@gateway/chat';
import type { Env, GatewayConfig } from '@gateway/config';
import { startEdge } from '@gateway/edge';
import type { Logger } from '@gateway/logging';
import { borrowed, DEFAULT_PORTS, openBus, openStore, type RunningService } from '@gateway/runtime';
import type { DocumentStore } from '@gateway/store';
import { startVideo } from '@gateway/video';

export interface GatewayOptions {
  config: GatewayConfig;
  logger: Logger;
  env: Env;
  /** Unix ms now, as accounting judges budget periods, expiry and grace (tests move it); Date.now by default. */
  clock?: () => number;
  /** Where /metrics is served (every service's, one registry); by default METRICS_PORT (9464) on HOST. */
  metrics?: { host: string; port: number } | false;
}

export interface RunningGateway {
  /** The edge's base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  /** GET /metrics for the whole process, e.g. http://127.0.0.1:9464/metrics; undefined when off. */
  metricsUrl: string | undefined;
  edge: RunningService;
  accounting: RunningService;
  chat: RunningService;
  video: RunningService;
  store: DocumentStore;
  bus: Bus;
  close(): Promise<void>;
}

/** Where a caller in this process reaches a service: in process when it serves so, else its port. */
function reach(service: RunningService): string {
  return service.inProcessAddress ?? service.address;
}

/**
 * The whole gateway in one process: the three services on loopback gRPC ports of their own,
 * the edge in front, one store (embedded unless MONGODB_URI) and one bus (NATS when NATS_URL
 * is set, else in-process). Callers in this process (the edge; chat and video asking accounting
 * for budget) reach the services in process, through the same handlers and serializers but
 * without HTTP/2; the ports still answer anything outside the process.
 */
export async function startGateway({ config, logger, env, clock, metrics }: GatewayOptions): Promise<RunningGateway> {
  const store = await openStore(env, logger);
  const { bus, close: closeBus } = await openBus('gateway', env, logger);
  const started: RunningService[] = [];
  const closeAll = async () => {
    for (const service of started.reverse()) await service.close();
    await closeBus();
    await store.close();
  };
  try {
    const shared = { config, bus, env };
    const accounting = await startAccounting({
      ...shared,
      store: borrowed(store),
      logger: logger.child({ service: 'accounting' }),
      listen: '127.0.0.1:0',
      inProcess: true,
      // Nothing else can hold leases in this process's own embedded store.
      leasesEndWithProcess: store.kind === 'embedded',
      ...(clock ? { clock } : {}),
    });
    started.push(accounting);
    // Chat and video hold each call's price in accounting before going upstream.
    const budgetClient = new AccountingClient(reach(accounting));
    started.push({ name: 'accounting', address: accounting.address, port: accounting.port, close: async () => budgetClient.close() });
    const budget = accountingBudget(budgetClient);
    // Chat draws its calls from budget leases: most calls need no accounting round trip.
    const chat = await startChat({
      ...shared,
      budget: new BudgetLeases(budgetClient, budget),
      responseStore: accountingResponseStore(budgetClient),
      logger: logger.child({ service: 'chat' }),
      listen: '127.0.0.1:0',
      inProcess: true,
      // The same clock prices calls (time-of-day windows) and dates their spend.
      ...(clock ? { clock } : {}),
    });
    started.push(chat);
    const video = await startVideo({
      ...shared,
      budget,
      store: borrowed(store),
      logger: logger.child({ service: 'video' }),
      listen: '127.0.0.1:0',
      inProcess: true,
    });
    started.push(video);
    const host = env.HOST ?? '127.0.0.1';
    const edge = await startEdge({
      config,
      bus,
      env,
      logger: logger.child({ service: 'edge' }),
      adminToken: env.ADMIN_TOKEN || undefined,
      host,
      port: Number(env.PORT ?? DEFAULT_PORTS.edge),
      services: { accounting: reach(accounting), chat: reach(chat), video: reach(video) },
      ...(metrics === undefined ? {} : { metrics }),
    });
    started.push(edge);
    const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    return {
      url: `http://${urlHost}:${edge.port}`,
      metricsUrl: edge.metricsPort === undefined ? undefined : `http://${urlHost}:${edge.metricsPort}/metrics`,
      edge,
      accounting,
      chat,
      video,
      store,
      bus,
      close: closeAll,
    };
  } catch (error) {
    await closeAll().catch(() => undefined);
    throw error;
  }
}
