import { parseArgs } from 'node:util';
import { ConfigError, type GatewayConfig } from '@gateway/config';
import { createLogger } from '@gateway/logging';
import { closeOnSignal, DEFAULT_PORTS, resolveConfig, type ServiceName, warnUnservedGroups } from '@gateway/runtime';
import type { AdminTarget } from './admin-client.js';
import { type AdminCommandContext, auditCommand, keysCommand, spendCommand, teamsCommand, UsageError } from './admin-commands.js';
import { explain, failureLine, type FailureContext } from './failures.js';

/** Each command's usage, shown by `gateway COMMAND --help`; `gateway --help` shows them all. */
const USAGE_OF: Readonly<Record<string, string>> = {
  start: `  gateway start                      all four services in one process (embedded store, in-process bus)
  gateway start --service NAME       one service alone: edge, chat, video or accounting
  gateway start --separate [--replicas chat=2,edge=2] [--auto-ports]
                                     every service as its own process (needs NATS_URL); --auto-ports
                                     picks free internal ports (gRPC, metrics), the edge stays on PORT`,
  config: `  gateway config check [FILE]        validate a config (default: the one start uses) and say which
                                     groups this environment serves; exit 1 on errors`,
  keys: `  gateway keys create --name NAME --models a,b|* --budget USD [--rpm N] [--tpm N]
                      [--period daily|weekly|monthly] [--expires WHEN] [--team ID] [--meta k=v]...
  gateway keys list | get ID | revoke ID
  gateway keys update ID [--name N] [--models a,b] [--budget USD] [--rpm N|none] [--tpm N|none]
                      [--period P|none] [--expires WHEN|none] [--team ID|none] [--meta k=v]... [--clear-meta]
  gateway keys rotate ID [--grace SECONDS]          the old secret works SECONDS more (at most 7 days)`,
  teams: `  gateway teams create --name NAME [--models a,b] [--budget USD] [--period P] [--rpm N] [--tpm N] [--meta k=v]...
  gateway teams list | get ID | delete ID
  gateway teams update ID [--name N] [--models a,b] [--budget USD|none] [--period P|none] [--rpm N|none] [--tpm N|none]`,
  spend: `  gateway spend logs [--key ID] [--team ID] [--group G] [--from WHEN] [--to WHEN] [--limit N] [--after CURSOR]
  gateway spend daily [--key ID] [--team ID] [--group G] [--from YYYY-MM-DD] [--to YYYY-MM-DD]`,
  audit: '  gateway audit [--target ID] [--limit N] [--after CURSOR]',
};

const FOOTER = `WHEN is Unix seconds or an ISO date or time (2026-12-31, 2026-12-31T12:00:00Z).

Environment: HOST, PORT (default 4000), METRICS_PORT (default 9464), GATEWAY_CONFIG,
GATEWAY_DATA_DIR, ADMIN_TOKEN, MONGODB_URI, NATS_URL, ACCOUNTING_ADDRESS, CHAT_ADDRESS,
VIDEO_ADDRESS, GRPC_HOST, GRPC_PORT, LOG_LEVEL, LOG_FORMAT. The keys, teams, spend and audit
commands call the admin API at GATEWAY_URL (default http://127.0.0.1:$PORT) with ADMIN_TOKEN.

A failure is one line on stderr, "gateway: <what went wrong> (<what to do>)". Exit codes:
0 done (and after a clean stop on SIGTERM or SIGINT), 1 failed, 2 wrong usage.
`;

function usage(command?: string): string {
  const sections = command && USAGE_OF[command] ? [USAGE_OF[command]] : Object.values(USAGE_OF);
  const title = command && USAGE_OF[command] ? '' : 'gateway: an OpenAI-compatible AI gateway\n\n';
  return `${title}Usage:\n${sections.join('\n\n')}\n\n${FOOTER}`;
}

function out(value: unknown): void {
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
}

/** Says why in one line and exits; what was started is not waited for. */
function failWith(error: unknown, context: FailureContext): never {
  const failure = explain(error, context);
  process.stderr.write(`${failureLine(failure)}\n`);
  // The stack of a fault nobody foresaw, for whoever asked to see more.
  if (failure.exitCode === 1 && failure.hint.startsWith('unexpected') && /^(debug|trace)$/.test(context.env.LOG_LEVEL ?? '')) {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(failure.exitCode);
}

const SERVICES: readonly ServiceName[] = ['edge', 'chat', 'video', 'accounting'];

async function start(args: string[], context: FailureContext): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      service: { type: 'string' },
      separate: { type: 'boolean' },
      replicas: { type: 'string' },
      'auto-ports': { type: 'boolean' },
    },
  });
  const env = process.env;
  if (values.separate) {
    context.separate = true;
    await startSeparate(values.replicas, values['auto-ports'] ?? false);
    return;
  }
  if (values['auto-ports'] || values.replicas !== undefined) throw new UsageError('--replicas and --auto-ports go with --separate');
  if (values.service !== undefined) {
    const name = values.service as ServiceName;
    if (!SERVICES.includes(name)) throw new UsageError(`unknown service "${values.service}" (one of ${SERVICES.join(', ')})`);
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
  const running = await startProcesses({ env: process.env, logger, replicas: parseReplicas(replicasText), autoPorts });
  const pids = Object.fromEntries([...running.children].map(([name, child]) => [name, child.pid]));
  logger.info({ listening: running.edges[0], edges: running.edges, metrics: running.metrics, pids }, 'gateway ready');
  closeOnSignal(logger, () => running.close());
}

function adminTarget(): AdminTarget {
  const token = process.env.ADMIN_TOKEN;
  if (!token) throw new UsageError('ADMIN_TOKEN is not set; set it to the token the gateway was started with');
  return { url: process.env.GATEWAY_URL ?? `http://127.0.0.1:${process.env.PORT ?? DEFAULT_PORTS.edge}`, token };
}

/** `gateway config check [FILE]`: the file (or the one `start` would use) checked, and what this environment serves of it. */
async function configCommand(args: string[]): Promise<void> {
  const [command, file, ...extra] = args;
  const flag = args.find((a) => a.startsWith('-'));
  if (flag) throw new UsageError(`config: unknown option '${flag}'`);
  if (command !== 'check' || extra.length > 0) throw new UsageError('config takes one command: check [FILE]');
  const { loadConfig, servingReport, unknownProviders } = await import('@gateway/config');
  let config: GatewayConfig;
  try {
    config = file ? await loadConfig(file) : (await resolveConfig(process.env)).config;
  } catch (error) {
    // The full report is what this command is for: every problem on stdout, then the one line.
    if (error instanceof ConfigError) out(error.message);
    throw error;
  }
  // Provider names are known to the services (one folder each), so they are checked here too.
  const [{ chatProviders }, { videoProviders }] = await Promise.all([import('@gateway/chat'), import('@gateway/video')]);
  const unknown = [...unknownProviders(config, 'chat', chatProviders), ...unknownProviders(config, 'video', videoProviders)];
  if (unknown.length > 0) {
    const error = new ConfigError(config.source, unknown);
    out(error.message);
    throw error;
  }
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

const COMMANDS = new Set(['start', 'config', ...Object.keys(adminCommands)]);

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const context: FailureContext = { env: process.env, command: command && COMMANDS.has(command) ? command : '' };
  const asksHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');
  try {
    if (command === undefined || command === 'help' || asksHelp([command])) out(usage(rest[0]));
    else if (!COMMANDS.has(command)) throw new UsageError(`unknown command "${command}"; the commands are ${[...COMMANDS].join(', ')}`);
    else if (asksHelp(rest)) out(usage(command));
    else if (command === 'start') await start(rest, context);
    else if (command === 'config') await configCommand(rest);
    else await adminCommands[command]?.(rest, { target: adminTarget, print: out });
  } catch (error) {
    failWith(error, context);
  }
}
