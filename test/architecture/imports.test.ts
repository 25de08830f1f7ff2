import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Services share contracts and nothing else: a service depends on packages/* only, and no
// package but the CLI (the composition root) depends on a service. Checked in the three places
// a dependency can hide: package.json, tsconfig references, and the imports in src/.

const root = fileURLToPath(new URL('../..', import.meta.url));
const SERVICES = readdirSync(join(root, 'services')).filter((name) => existsSync(join(root, 'services', name, 'package.json')));
const PACKAGES = readdirSync(join(root, 'packages')).filter((name) => existsSync(join(root, 'packages', name, 'package.json')));
const SERVICE_IMPORT = new RegExp(`(?:from\\s*|import\\s*\\(\\s*|import\\s+)['"](@gateway/(?:${SERVICES.join('|')}))(?:/[^'"]*)?['"]`, 'g');

interface Workspace {
  folder: 'services' | 'packages';
  name: string;
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry) ? [path] : [];
  });
}

/** Every mention of a service by a workspace, as "where: what". */
function serviceMentions({ folder, name }: Workspace): string[] {
  const base = join(root, folder, name);
  const found: string[] = [];
  const manifest = readJson(join(base, 'package.json'));
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const deps = (manifest[field] ?? {}) as Record<string, string>;
    for (const dep of Object.keys(deps)) {
      if (SERVICES.some((service) => dep === `@gateway/${service}`)) found.push(`package.json ${field}: ${dep}`);
    }
  }
  const tsconfig = readJson(join(base, 'tsconfig.json'));
  for (const reference of (tsconfig.references ?? []) as { path: string }[]) {
    const target = join(base, reference.path);
    if (SERVICES.some((service) => target === join(root, 'services', service))) found.push(`tsconfig.json reference: ${reference.path}`);
  }
  for (const file of sourceFiles(join(base, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(SERVICE_IMPORT)) found.push(`${file.slice(root.length)}: ${match[1]}`);
    // A relative path into another service's folder is the same dependency in disguise.
    for (const match of text.matchAll(/['"]((?:\.\.\/)+services\/[^'"]+)['"]/g)) found.push(`${file.slice(root.length)}: ${match[1]}`);
  }
  return found;
}

describe('architecture: services share contracts and nothing else', () => {
  it('finds the workspaces it checks', () => {
    expect(SERVICES).toEqual(expect.arrayContaining(['accounting', 'chat', 'edge', 'video']));
    expect(PACKAGES).toEqual(expect.arrayContaining(['contracts', 'cli']));
  });

  it.each(SERVICES)('service %s names no other service', (name) => {
    const mentions = serviceMentions({ folder: 'services', name }).filter((m) => !m.endsWith(`@gateway/${name}`));
    expect(mentions).toEqual([]);
  });

  it.each(PACKAGES.filter((name) => name !== 'cli'))('package %s names no service', (name) => {
    expect(serviceMentions({ folder: 'packages', name })).toEqual([]);
  });

  it('the detector sees an import of a service', () => {
    const sample = "import { startChat } from '@gateway/chat';\nconst m = await import('@gateway/video');";
    expect([...sample.matchAll(SERVICE_IMPORT)].map((m) => m[1])).toEqual(['@gateway/chat', '@gateway/video']);
  });

  it('the built edge loads no module of accounting, chat or video', async () => {
    // Runs against dist/ (the test suite is run after `tsc -b`).
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts/count-modules.mjs')], { cwd: root });
    const counts = JSON.parse(stdout) as Record<string, number>;
    expect(counts['services/edge']).toBeGreaterThan(0);
    expect(counts['packages/contracts']).toBeGreaterThan(0);
    for (const service of ['services/accounting', 'services/chat', 'services/video']) expect(counts[service] ?? 0).toBe(0);
  });

  it.each(SERVICES)('the built %s loads TypeBox as one module, not its ~540 (packages/typebox)', async (name) => {
    // Runs against dist/ after `npm run build` (the test suite's pretest bundles it too).
    const entry = join(root, 'services', name, 'dist/index.js');
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts/count-modules.mjs'), entry], { cwd: root });
    const counts = JSON.parse(stdout) as Record<string, number>;
    expect(counts['node_modules/typebox'] ?? 0).toBe(0);
    // Every service reads the configuration, whose schema is TypeBox's.
    expect(counts['packages/typebox']).toBe(1);
  });

  it("no process loads Node's bundled undici at start (an ESM import of node:http would, on Node 24)", async () => {
    const entries = [...SERVICES.map((name) => join(root, 'services', name, 'dist/index.js')), join(root, 'packages/cli/dist/main.js')];
    for (const entry of entries) {
      const script = `await import(${JSON.stringify(entry)}); console.log(process.moduleLoadList.some((name) => name.includes('deps/undici')));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
      expect(stdout.trim(), entry).toBe('false');
    }
  });
});
