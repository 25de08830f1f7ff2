import { parseArgs } from 'node:util';
import { ConfigError } from '@gateway/config';
import { createLogger } from '@gateway/logging';
import { closeOnSignal, DEFAULT_PORTS, resolveConfig, type ServiceName } from '@gateway/runtime';
import { AdminApiError, adminRequest, type AdminTarget } from './admin-client.js';

const USAGE = `gateway: an OpenAI-compatible AI gateway

Usage:
  gateway start                      all four services in one process (embedded store, in-process bus)
  gateway start --service NAME       one service alone: edge, chat, video or accounting
  gateway start --separate [--replicas chat=2,edge=2] [--auto-ports]
                                     every service as its own process (needs NATS_URL)
  gateway keys create --name NAME --models a,b|* --budget USD [--rpm N] [--tpm N]
  gateway keys list
  gateway keys get ID
  gateway keys revoke ID

Environment: HOST, PORT (default 4000), GATEWAY_CONFIG, GATEWAY_DATA_DIR, ADMIN_TOKEN,
MONGODB_URI, NATS_URL, ACCOUNTING_ADDRESS, CHAT_ADDRESS, VIDEO_ADDRESS, GRPC_HOST, GRPC_PORT, LOG_LEVEL.
The keys commands reach the gateway at GATEWAY_URL (default http://127.0.0.1:$PORT) with ADMIN_TOKEN.
`;

function out(value: unknown): void {
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
}

function fail(message: string, exitCode = 1): never {
  process.stderr.write(`gateway: ${message}\n`);
  process.exit(exitCode);
}

const SERVICES: readonly ServiceName[] = ['edge', 'chat', 'video', 'accounting'];

async function start(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      service: { type: 'string' },
      separate: { type: 'boolean' },
      replicas: { type: 'string' },
      'auto-ports': { type: 'boolean' },
    },
  });
  const env = process.env;
  if (values.separate) {
    await startSeparate(values.replicas, values['auto-ports'] ?? false);
    return;
  }
  if (values.service !== undefined) {
    const name = values.service as ServiceName;
    if (!SERVICES.includes(name)) fail(`unknown service "${values.service}" (one of ${SERVICES.join(', ')})`, 2);
    const modules = {
      edge: () => import('@gateway/edge'),
      chat: () => import('@gateway/chat'),
      video: () => import('@gateway/video'),
      accounting: () => import('@gateway/accounting'),
    };
    await (await modules[name]()).main(env);
    return;
  }
  const logger = createLogger();
  const { config, usedExample } = await resolveConfig(env);
  if (usedExample) {
    logger.info({ config: config.source }, 'no gateway.yaml found (and GATEWAY_CONFIG unset): using the shipped example configuration');
  }
  // Loaded here so the `keys` commands start without loading every service.
  const { startGateway } = await import('./gateway.js');
  const gateway = await startGateway({ config, logger, env });
  logger.info({ listening: gateway.url, store: gateway.store.kind, groups: config.groups.length }, 'gateway ready');
  closeOnSignal(logger, () => gateway.close());
}

async function startSeparate(replicasText: string | undefined, autoPorts: boolean): Promise<void> {
  const logger = createLogger({ name: 'supervisor' });
  const { parseReplicas, startProcesses } = await import('./processes.js');
  let running: Awaited<ReturnType<typeof startProcesses>>;
  try {
    running = await startProcesses({ env: process.env, logger, replicas: parseReplicas(replicasText), autoPorts });
  } catch (error) {
    fail((error as Error).message);
  }
  const pids = Object.fromEntries([...running.children].map(([name, child]) => [name, child.pid]));
  logger.info({ listening: running.edges[0], edges: running.edges, metrics: running.metrics, pids }, 'gateway ready');
  closeOnSignal(logger, () => running.close());
}

function adminTarget(): AdminTarget {
  const token = process.env.ADMIN_TOKEN;
  if (!token) fail('set ADMIN_TOKEN to the token the gateway was started with', 2);
  return { url: process.env.GATEWAY_URL ?? `http://127.0.0.1:${process.env.PORT ?? DEFAULT_PORTS.edge}`, token };
}

async function keys(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create': {
      const { values } = parseArgs({
        args: rest,
        options: {
          name: { type: 'string' },
          models: { type: 'string' },
          budget: { type: 'string' },
          rpm: { type: 'string' },
          tpm: { type: 'string' },
        },
      });
      if (!values.name || !values.models || values.budget === undefined) fail('keys create needs --name, --models and --budget', 2);
      const budget = Number(values.budget);
      if (!Number.isFinite(budget) || budget < 0) fail('--budget must be a number of USD >= 0', 2);
      const rpm = values.rpm === undefined ? undefined : Number(values.rpm);
      if (rpm !== undefined && !(Number.isInteger(rpm) && rpm >= 1)) fail('--rpm must be a whole number >= 1', 2);
      const tpm = values.tpm === undefined ? undefined : Number(values.tpm);
      if (tpm !== undefined && !(Number.isInteger(tpm) && tpm >= 1)) fail('--tpm must be a whole number >= 1', 2);
      const models = values.models
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean);
      out(
        await adminRequest(adminTarget(), 'POST', '/admin/v1/keys', {
          name: values.name,
          models,
          budget_usd: budget,
          ...(rpm ? { rpm } : {}),
          ...(tpm ? { tpm } : {}),
        }),
      );
      return;
    }
    case 'list': {
      const target = adminTarget();
      const all: unknown[] = [];
      let after: string | null = null;
      do {
        const page = (await adminRequest(
          target,
          'GET',
          `/admin/v1/keys?limit=1000${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        )) as { data: unknown[]; next_after: string | null };
        all.push(...page.data);
        after = page.next_after;
      } while (after);
      out(all);
      return;
    }
    case 'get':
    case 'revoke': {
      const id = rest[0];
      if (!id) fail(`keys ${command} needs a key id`, 2);
      out(await adminRequest(adminTarget(), command === 'get' ? 'GET' : 'DELETE', `/admin/v1/keys/${encodeURIComponent(id)}`));
      return;
    }
    default:
      fail(`unknown keys command "${command ?? ''}"\n\n${USAGE}`, 2);
  }
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    if (command === 'start') await start(rest);
    else if (command === 'keys') await keys(rest);
    else if (command === undefined || command === '--help' || command === '-h' || command === 'help') out(USAGE);
    else fail(`unknown command "${command}"\n\n${USAGE}`, 2);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    if (error instanceof AdminApiError) fail(`${error.message} (${error.code})`);
    throw error;
  }
}
