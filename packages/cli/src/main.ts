import { parseArgs } from 'node:util';
import { ConfigError } from '@gateway/config';
import { createLogger } from '@gateway/logging';
import { closeOnSignal, DEFAULT_PORTS, resolveConfig, type ServiceName, warnUnservedGroups } from '@gateway/runtime';
import { AdminApiError, type AdminTarget } from './admin-client.js';
import { type AdminCommandContext, auditCommand, keysCommand, spendCommand, teamsCommand, UsageError } from './admin-commands.js';

const USAGE = `gateway: an OpenAI-compatible AI gateway

Usage:
  gateway start                      all four services in one process (embedded store, in-process bus)
  gateway start --service NAME       one service alone: edge, chat, video or accounting
  gateway start --separate [--replicas chat=2,edge=2] [--auto-ports]
                                     every service as its own process (needs NATS_URL)

  gateway config check [FILE]        validate a config (default: the one start uses) and say which
                                     groups this environment serves; exit 1 on errors

  gateway keys create --name NAME --models a,b|* --budget USD [--rpm N] [--tpm N]
                      [--period daily|weekly|monthly] [--expires WHEN] [--team ID] [--meta k=v]...
  gateway keys list | get ID | revoke ID
  gateway keys update ID [--name N] [--models a,b] [--budget USD] [--rpm N|none] [--tpm N|none]
                      [--period P|none] [--expires WHEN|none] [--team ID|none] [--meta k=v]... [--clear-meta]
  gateway keys rotate ID [--grace SECONDS]          the old secret works SECONDS more (at most 7 days)
  gateway teams create --name NAME [--models a,b] [--budget USD] [--period P] [--rpm N] [--tpm N] [--meta k=v]...
  gateway teams list | get ID | delete ID
  gateway teams update ID [--name N] [--models a,b] [--budget USD|none] [--period P|none] [--rpm N|none] [--tpm N|none]
  gateway spend logs [--key ID] [--team ID] [--group G] [--from WHEN] [--to WHEN] [--limit N] [--after CURSOR]
  gateway spend daily [--key ID] [--team ID] [--group G] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
  gateway audit [--target ID] [--limit N] [--after CURSOR]

WHEN is Unix seconds or an ISO date or time (2026-12-31, 2026-12-31T12:00:00Z).

Environment: HOST, PORT (default 4000), GATEWAY_CONFIG, GATEWAY_DATA_DIR, ADMIN_TOKEN,
MONGODB_URI, NATS_URL, ACCOUNTING_ADDRESS, CHAT_ADDRESS, VIDEO_ADDRESS, GRPC_HOST, GRPC_PORT, LOG_LEVEL.
The keys, teams, spend and audit commands call the admin API at GATEWAY_URL (default
http://127.0.0.1:$PORT) with ADMIN_TOKEN. Exit codes: 0 done, 1 failed, 2 wrong usage.
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
  const served = warnUnservedGroups(config, env, logger);
  const gateway = await startGateway({ config, logger, env });
  logger.info(
    {
      listening: gateway.url,
      metrics: gateway.metricsUrl,
      store: gateway.store.kind,
      groups: served,
      configuredGroups: config.groups.length,
    },
    'gateway ready',
  );
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

/** `gateway config check [FILE]`: the file (or the one `start` would use) checked, and what this environment serves of it. */
async function configCommand(args: string[]): Promise<void> {
  const [command, file, ...extra] = args;
  if (command !== 'check' || extra.length > 0) throw new UsageError('usage: gateway config check [FILE]');
  const { loadConfig, servingReport } = await import('@gateway/config');
  const config = file
    ? await loadConfig(file).catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') fail(`cannot read ${file} (${code}): give a readable YAML file`);
        throw error;
      })
    : (await resolveConfig(process.env)).config;
  const { served, unserved } = servingReport(config, process.env);
  const lines = [`${config.source}: valid, ${config.groups.length} groups, ${served.length} served here`];
  for (const group of served) lines.push(`  served      ${group.id} (${group.mode})`);
  for (const group of unserved) lines.push(`  not served  ${group.id} (${group.mode}): set ${group.unset.join(' or ')}`);
  out(lines.join('\n'));
}

const adminCommands: Record<string, (args: string[], context: AdminCommandContext) => Promise<void>> = {
  keys: keysCommand,
  teams: teamsCommand,
  spend: spendCommand,
  audit: auditCommand,
};

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    if (rest.includes('--help') || rest.includes('-h')) out(USAGE);
    else if (command === 'start') await start(rest);
    else if (command === 'config') await configCommand(rest);
    else if (command !== undefined && Object.hasOwn(adminCommands, command))
      await adminCommands[command]?.(rest, { target: adminTarget, print: out });
    else if (command === undefined || command === '--help' || command === '-h' || command === 'help') out(USAGE);
    else fail(`unknown command "${command}"\n\n${USAGE}`, 2);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    if (error instanceof AdminApiError) fail(`${error.message} (${error.code})`);
    if (error instanceof UsageError) fail(`${error.message} (see gateway --help)`, 2);
    throw error;
  }
}
