import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceNodeFlags } from '@gateway/cli';
import { parseConfig } from '@gateway/config';
import { GrpcServer } from '@gateway/grpc';
import { createLogger } from '@gateway/logging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { parse } from 'yaml';

// The container side of deployment: the Dockerfile, .dockerignore, docker-compose.yml,
// .env.example, and the gRPC health check script the compose health checks run.

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(`${root}${path}`, 'utf8');

interface Healthcheck {
  test?: string[] | string;
  interval?: string;
  timeout?: string;
  retries?: number;
  start_period?: string;
}

interface ComposeService {
  image?: string;
  pull_policy?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  env_file?: string | (string | { path: string; required?: boolean })[];
  volumes?: (string | { type?: string; source?: string; target: string; read_only?: boolean })[];
  ports?: (string | number | { target: number; published?: string | number })[];
  healthcheck?: Healthcheck;
  depends_on?: string[] | Record<string, { condition?: string }>;
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const GATEWAY_SERVICES = ['accounting', 'chat', 'video', 'edge'] as const;
const GRPC_PORTS: Record<string, number> = { accounting: 50051, chat: 50052, video: 50053 };

function service(compose: ComposeFile, name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

function environment(s: ComposeService): Record<string, string> {
  if (Array.isArray(s.environment)) {
    return Object.fromEntries(
      s.environment.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

function words(value: string[] | string | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : value.split(/\s+/).filter(Boolean);
}

/** Every deployment's api_key_env in the shipped configuration. */
function credentialVariables(): string[] {
  const config = parseConfig(read('gateway.example.yaml'), 'gateway.example.yaml');
  // The demo provider names none.
  return [...new Set(config.groups.flatMap((g) => g.deployments.map((d) => d.apiKeyEnv)))].filter(Boolean).sort();
}

/** Each mode's credential variables in the shipped configuration. */
function credentialVariablesByMode(): { chat: string[]; video: string[] } {
  const config = parseConfig(read('gateway.example.yaml'), 'gateway.example.yaml');
  const of = (mode: string) =>
    [...new Set(config.groups.filter((g) => g.mode === mode).flatMap((g) => g.deployments.map((d) => d.apiKeyEnv)))].filter(Boolean).sort();
  return { chat: of('chat'), video: of('video') };
}

/** What compose needs from .env to start at all. */
const REQUIRED = { ADMIN_TOKEN: 'compose-test-token' };

/** Compose's variable interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([-?])([^}]*))?\}/g, (_match, name: string, op?: string, arg?: string) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (op === '?') throw new Error(arg ?? `${name} is required`);
    return op === '-' ? (arg ?? '') : '';
  });
}

// The parts of the Compose specification (compose-spec.io) this file uses, strictly: the real
// schema allows much more, and a key outside this subset is worth a look before it ships.
const Str = Type.String();
const StringList = Type.Union([Str, Type.Array(Str)]);
const ComposeSubsetSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]*$' }),
    services: Type.Record(
      Type.String({ pattern: '^[a-zA-Z0-9._-]+$' }),
      Type.Object(
        {
          image: Str,
          build: Type.Optional(
            Type.Union([Str, Type.Object({ context: Str, dockerfile: Type.Optional(Str) }, { additionalProperties: false })]),
          ),
          pull_policy: Type.Optional(Type.Enum(['always', 'never', 'missing', 'build', 'daily', 'weekly'])),
          restart: Type.Optional(Type.Enum(['no', 'always', 'on-failure', 'unless-stopped'])),
          command: Type.Optional(StringList),
          entrypoint: Type.Optional(StringList),
          environment: Type.Optional(Type.Record(Str, Type.Union([Str, Type.Number(), Type.Boolean(), Type.Null()]))),
          volumes: Type.Optional(Type.Array(Type.String({ pattern: '^[^:]+:/[^:]*(:(ro|rw))?$' }))),
          ports: Type.Optional(Type.Array(Type.String({ pattern: '^(\\$\\{[A-Z_]+(:-[0-9.]+)?\\}:|[0-9.]+:)?[0-9]+:[0-9]+$' }))),
          healthcheck: Type.Optional(
            Type.Object(
              {
                test: Type.Array(Str, { minItems: 2 }),
                interval: Type.Optional(Type.String({ pattern: '^[0-9]+(ms|s|m)$' })),
                timeout: Type.Optional(Type.String({ pattern: '^[0-9]+(ms|s|m)$' })),
                start_period: Type.Optional(Type.String({ pattern: '^[0-9]+(ms|s|m)$' })),
                retries: Type.Optional(Type.Integer({ minimum: 1 })),
              },
              { additionalProperties: false },
            ),
          ),
          depends_on: Type.Optional(
            Type.Record(
              Str,
              Type.Object(
                { condition: Type.Enum(['service_started', 'service_healthy', 'service_completed_successfully']) },
                { additionalProperties: false },
              ),
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    volumes: Type.Optional(Type.Record(Str, Type.Union([Type.Null(), Type.Object({})]))),
  },
  { additionalProperties: false },
);
const composeSubset = Compile(ComposeSubsetSchema);

/** The .dockerignore patterns, comments and blank lines left out. */
function dotdockerignore(): string[] {
  return read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** Every workspace folder (packages/*, services/*), sorted. */
function workspaces(): string[] {
  return ['packages', 'services']
    .flatMap((dir) => readdirSync(`${root}${dir}`).map((name) => `${dir}/${name}`))
    .filter((dir) => existsSync(`${root}${dir}/package.json`))
    .sort();
}

/** The workspaces tsc -b builds from one project: it and its references, transitively. */
function projectsReachedFrom(project: string): string[] {
  const seen = new Set<string>();
  const visit = (dir: string): void => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const tsconfig = JSON.parse(read(`${dir}/tsconfig.json`)) as { references?: { path: string }[] };
    for (const reference of tsconfig.references ?? []) visit(posix.normalize(posix.join(dir, reference.path)));
  };
  visit(project);
  return [...seen].sort();
}

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages = instructions.reduce<string[][]>((all, line) => {
    if (/^FROM\s/i.test(line)) all.push([line]);
    else all.at(-1)?.push(line);
    return all;
  }, []);
  const runtime = stages.at(-1) ?? [];

  it('builds in more than one stage, from a slim Node 20 base', () => {
    expect(stages.length).toBeGreaterThan(1);
    expect(dockerfile).toMatch(/node:24-bookworm-slim|distroless\/nodejs24/);
    expect(instructions.some((l) => /npm ci\b/.test(l) && !/--omit=dev/.test(l))).toBe(true);
    expect(instructions.some((l) => /npm run build|tsc -b/.test(l))).toBe(true);
  });

  it('ships production dependencies only', () => {
    expect(instructions.some((l) => /npm ci\b.*--omit=dev/.test(l) || /npm prune\b.*--omit=dev/.test(l))).toBe(true);
    expect(
      runtime.some((l) => /npm (ci|install)\b(?!.*--omit=dev)/.test(l)),
      'no full install in the runtime stage',
    ).toBe(false);
  });

  it('runs as a numeric non-root user', () => {
    const users = runtime.filter((l) => /^USER\s/i.test(l));
    expect(users.length).toBeGreaterThan(0);
    const user = (users.at(-1) ?? '').replace(/^USER\s+/i, '');
    const [uid] = user.split(':');
    expect(uid).toMatch(/^\d+$/);
    expect(Number(uid)).toBeGreaterThan(0);
  });

  it('enters through the gateway CLI and starts the all-in-one gateway by default', () => {
    // With the Node flags of the command's own first line.
    const first = read('packages/cli/bin/gateway.js').split('\n')[0] ?? '';
    const [, assignments = '', rest = ''] = /^#!\/usr\/bin\/env -S ((?:\w+=\S*\s+)*)node ?(.*)$/.exec(first) ?? [];
    const flags = rest.split(' ').filter(Boolean);
    expect(flags).toEqual(['--max-semi-space-size=16', '--heap-growing-percent=50']);
    // And the environment it sets for itself, as the image's.
    const environment = ['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=32768'];
    expect(assignments.split(' ').filter(Boolean)).toEqual(environment);
    for (const assignment of environment) expect(runtime.find((l) => l.startsWith('ENV '))?.split(/\s+/)).toContain(assignment);
    expect(runtime).toContain(`ENTRYPOINT ${JSON.stringify(['node', ...flags, 'packages/cli/bin/gateway.js']).replaceAll(',', ', ')}`);
    expect(runtime).toContain('CMD ["start"]');
    expect(existsSync(`${root}packages/cli/bin/gateway.js`)).toBe(true);
  });

  it('leaves the test simulators out of the build context, the build and the image', () => {
    expect(dotdockerignore()).toContain('packages/simulators');
    expect(instructions.filter((l) => /simulators/.test(l))).toEqual([]);
    // The root tsconfig.json references the simulators' project, so the image builds from the
    // CLI's instead; its references must still reach every other workspace.
    expect(instructions.some((l) => /tsc -b packages\/cli\b/.test(l))).toBe(true);
    expect(projectsReachedFrom('packages/cli')).toEqual(workspaces().filter((w) => w !== 'packages/simulators'));
  });

  it('installs production dependencies without the simulators: no production workspace depends on them', () => {
    for (const workspace of ['.', ...workspaces().filter((w) => w !== 'packages/simulators')]) {
      const manifest = JSON.parse(read(`${workspace}/package.json`)) as Record<string, Record<string, string> | undefined>;
      for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
        expect(Object.keys(manifest[field] ?? {}), `${workspace} ${field}`).not.toContain('@gateway/simulators');
      }
    }
  });

  it('copies the protos, the example configuration and the health check script into the image', () => {
    const copies = runtime.filter((l) => /^COPY\s/i.test(l)).join('\n');
    expect(copies).toMatch(/\bproto\//);
    expect(copies).toMatch(/gateway\.example\.yaml/);
    expect(copies).toMatch(/deploy\/grpc-health\.mjs/);
  });
});

describe('.dockerignore', () => {
  const ignored = dotdockerignore();

  it('keeps dependencies, build output, data, git, secrets and bench results out of the context', () => {
    for (const pattern of ['**/node_modules', '**/dist', 'data', '.git', '.env', 'bench']) expect(ignored).toContain(pattern);
  });

  it('lets in what the Dockerfile copies from deploy/', () => {
    expect(ignored).toContain('!deploy/grpc-health.mjs');
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;

  it('runs MongoDB, NATS with JetStream and the four gateway services', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['accounting', 'chat', 'edge', 'mongo', 'nats', 'video']);
    expect(service(compose, 'mongo').image).toMatch(/^mongo:7/);
    const nats = service(compose, 'nats');
    expect(nats.image).toMatch(/^nats:2/);
    const args = words(nats.command);
    expect(args.includes('-js') || args.includes('--jetstream')).toBe(true);
    expect(nats.volumes?.length ?? 0, 'JetStream keeps its streams in a volume').toBeGreaterThan(0);
  });

  it('builds the one image once, by accounting, and runs it for all four, each picked by command', () => {
    const image = service(compose, 'accounting').image;
    expect(service(compose, 'accounting').build).toBeDefined();
    for (const name of GATEWAY_SERVICES) {
      const s = service(compose, name);
      expect(s.image, name).toBe(image);
      expect(words(s.command), name).toEqual(['start', '--service', name]);
      // With a service process's Node flags on the image's Node line (24), as `gateway start
      // --separate` gives its children there.
      expect(words(s.entrypoint ?? []), name).toEqual(['node', ...serviceNodeFlags(24), 'packages/cli/bin/gateway.js']);
      if (name === 'accounting') continue;
      // Not built again, and never looked for in a registry.
      expect(s.build, name).toBeUndefined();
      expect(s.pull_policy, name).toBe('never');
      expect(Object.keys(s.depends_on ?? {}), `${name} starts after the service that builds the image`).toContain('accounting');
    }
  });

  it('publishes the edge on 127.0.0.1:4000 unless told otherwise, and nothing else at all', () => {
    const published = (env: Record<string, string>) =>
      (service(compose, 'edge').ports ?? []).map((p) =>
        interpolate(typeof p === 'object' ? `${p.published ?? ''}:${p.target}` : String(p), env),
      );
    expect(published(REQUIRED)).toEqual(['127.0.0.1:4000:4000']);
    expect(published({ ...REQUIRED, GATEWAY_PUBLISH_ADDRESS: '0.0.0.0' })).toEqual(['0.0.0.0:4000:4000']);
    // Metrics (9464) and gRPC stay on the compose network.
    for (const name of ['accounting', 'chat', 'video', 'mongo', 'nats']) expect(service(compose, name).ports, name).toBeUndefined();
  });

  it('health-checks every service: the edge on /health/readiness, the gRPC services over grpc.health.v1', () => {
    for (const name of [...GATEWAY_SERVICES, 'mongo', 'nats']) {
      expect(words(service(compose, name).healthcheck?.test).length, name).toBeGreaterThan(0);
    }
    expect(words(service(compose, 'edge').healthcheck?.test).join(' ')).toContain('/health/readiness');
    for (const [name, port] of Object.entries(GRPC_PORTS)) {
      const test = words(service(compose, name).healthcheck?.test);
      expect(test, name).toContain('deploy/grpc-health.mjs');
      expect(test, name).toContain(`127.0.0.1:${port}`);
      expect(environment(service(compose, name)).GRPC_PORT, name).toBe(String(port));
    }
    expect(existsSync(`${root}deploy/grpc-health.mjs`)).toBe(true);
  });

  it('starts each service after what it needs is healthy', () => {
    const needs: Record<string, string[]> = {
      accounting: ['mongo', 'nats'],
      chat: ['accounting', 'nats'],
      video: ['accounting', 'mongo', 'nats'],
      edge: ['accounting', 'chat', 'video'],
    };
    for (const [name, dependencies] of Object.entries(needs)) {
      const dependsOn = service(compose, name).depends_on;
      expect(Array.isArray(dependsOn), `${name}: depends_on with conditions`).toBe(false);
      for (const dependency of dependencies) {
        const entry = (dependsOn as Record<string, { condition?: string }> | undefined)?.[dependency];
        expect(entry?.condition, `${name} waits for ${dependency}`).toBe('service_healthy');
      }
    }
  });

  it('mounts the configuration read-only and points GATEWAY_CONFIG at it', () => {
    for (const name of GATEWAY_SERVICES) {
      const s = service(compose, name);
      const config = environment(s).GATEWAY_CONFIG;
      expect(config, name).toBeTruthy();
      const mount = (s.volumes ?? []).find((v) => (typeof v === 'string' ? v.split(':')[1] === config : v.target === config));
      expect(mount, `${name} mounts ${config}`).toBeDefined();
      if (typeof mount === 'string') {
        expect(mount.split(':')[2], name).toBe('ro');
        expect(existsSync(`${root}${mount.split(':')[0]?.replace(/^\.\//, '')}`), `${mount} exists`).toBe(true);
      } else {
        expect(mount?.read_only, name).toBe(true);
      }
    }
  });

  it('wires the services to MongoDB, NATS and each other', () => {
    for (const name of GATEWAY_SERVICES) {
      const env = environment(service(compose, name));
      expect(env.NATS_URL, name).toBe('nats://nats:4222');
      expect(env.GATEWAY_DATA_DIR, name).toBe('/data');
    }
    for (const name of ['accounting', 'video'])
      expect(environment(service(compose, name)).MONGODB_URI, name).toMatch(/^mongodb:\/\/mongo:27017\//);
    const edge = environment(service(compose, 'edge'));
    expect(edge.HOST).toBe('0.0.0.0');
    for (const [name, port] of Object.entries(GRPC_PORTS))
      expect(edge[`${name.toUpperCase()}_ADDRESS`]).toMatch(new RegExp(`${name}:${port}$`));
  });

  it('gives each service only the variables it uses: credentials to chat and video by mode, ADMIN_TOKEN to the edge', () => {
    const needed = credentialVariablesByMode();
    const own: Record<string, string[]> = { accounting: [], chat: needed.chat, video: needed.video, edge: ['ADMIN_TOKEN'] };
    const secrets = ['ADMIN_TOKEN', ...credentialVariables()];
    for (const name of GATEWAY_SERVICES) {
      const s = service(compose, name);
      // No env_file: it would hand every variable of .env to every service.
      expect(s.env_file, name).toBeUndefined();
      const env = environment(s);
      expect(secrets.filter((v) => v in env).sort(), name).toEqual([...(own[name] ?? [])].sort());
      // Values come from .env by interpolation, never written here.
      for (const variable of own[name] ?? [])
        expect(env[variable], `${name} ${variable}`).toMatch(new RegExp(`^\\$\\{${variable}(:[-?].*)?\\}$`));
    }
    // Without ADMIN_TOKEN compose refuses to start rather than run with the admin API off.
    expect(() => interpolate(environment(service(compose, 'edge')).ADMIN_TOKEN ?? '', {})).toThrow(/set ADMIN_TOKEN in \.env/);
  });

  it('states the Compose version it needs, and fits the parts of the Compose specification it uses', () => {
    expect(read('docker-compose.yml')).toMatch(/^# Requires Docker Compose v2\.20\.0 or later/m);
    const raw = parse(read('docker-compose.yml'), { merge: true }) as Record<string, unknown>;
    // Extension fields (x-…) are compose's own anchors; the rest must fit the subset schema.
    const checked = Object.fromEntries(Object.entries(raw).filter(([key]) => !key.startsWith('x-')));
    const errors = [...composeSubset.Errors(checked)].map((e) => `${e.instancePath} ${e.message}`);
    expect(errors).toEqual([]);
    // The subset is strict: a misspelt key is caught.
    const misspelt = { ...checked, services: { edge: { image: 'x', enviroment: {} } } };
    expect(composeSubset.Check(misspelt)).toBe(false);
  });

  it('passes `docker compose config` where the Compose plugin is installed (skipped here otherwise, said so)', async (context) => {
    const version = await new Promise<string | undefined>((resolve) => {
      execFile('docker', ['compose', 'version', '--short'], (error, stdout) => resolve(error ? undefined : stdout.trim()));
    });
    if (!version) {
      context.skip('no docker compose plugin on this machine; the subset schema above is the check');
      return;
    }
    const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
    expect(major > 2 || (major === 2 && minor >= 20), `docker compose ${version} is older than 2.20.0`).toBe(true);
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        'docker',
        ['compose', '-f', `${root}docker-compose.yml`, 'config', '-q'],
        { env: { ...process.env, ...REQUIRED } },
        (error, _stdout, stderr) => resolve({ code: error ? 1 : 0, stderr }),
      );
    });
    expect(result, result.stderr).toMatchObject({ code: 0 });
  });
});

describe('.env.example', () => {
  const variables = new Map(
    read('.env.example')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
  );

  it('lists ADMIN_TOKEN and every credential variable the shipped configuration names, all empty', () => {
    for (const variable of ['ADMIN_TOKEN', ...credentialVariables()]) {
      expect(variables.has(variable), variable).toBe(true);
      expect(variables.get(variable), `${variable} holds no value`).toBe('');
    }
  });
});

describe('deploy/grpc-health.mjs', () => {
  const script = `${root}deploy/grpc-health.mjs`;
  const logger = createLogger({ level: 'silent' });
  const serving = new GrpcServer({ logger, shutdownGraceMs: 100 });
  const failing = new GrpcServer({ logger, shutdownGraceMs: 100, checks: { store: () => Promise.reject(new Error('down')) } });
  let servingPort = 0;
  let failingPort = 0;

  beforeAll(async () => {
    servingPort = await serving.listen('127.0.0.1:0');
    failingPort = await failing.listen('127.0.0.1:0');
  });
  afterAll(async () => {
    await serving.close();
    await failing.close();
  });

  const run = (...args: string[]) =>
    new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, [script, ...args], { env: { ...process.env, HEALTH_TIMEOUT_MS: '2000' } }, (error, _stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr });
      });
    });

  it('exits 0 when the server answers SERVING', async () => {
    expect((await run(`127.0.0.1:${servingPort}`)).code).toBe(0);
  });

  it('exits 1 when the server answers NOT_SERVING', async () => {
    const result = await run(`127.0.0.1:${failingPort}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('NOT_SERVING');
  });

  it('exits 1 for an unknown service name and when nothing listens', async () => {
    expect((await run(`127.0.0.1:${servingPort}`, 'no.such.Service')).code).toBe(1);
    const closed = new GrpcServer({ logger });
    const port = await closed.listen('127.0.0.1:0');
    await closed.close();
    expect((await run(`127.0.0.1:${port}`)).code).toBe(1);
  });
});
