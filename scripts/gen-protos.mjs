#!/usr/bin/env node
// Regenerates packages/protos/src/generated from proto/ with proto-loader-gen-types, using the
// very options the runtime loader reads (packages/protos/loader-options.json), so the types
// describe exactly the objects grpc-js hands us.
// Usage: node scripts/gen-protos.mjs [outDir]
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const protosPkg = join(root, 'packages/protos');
const options = JSON.parse(readFileSync(join(protosPkg, 'loader-options.json'), 'utf8'));
const files = JSON.parse(readFileSync(join(protosPkg, 'proto-files.json'), 'utf8'));
const outDir = resolve(process.argv[2] ?? join(protosPkg, 'src/generated'));

const flags = [];
for (const [name, value] of Object.entries(options)) {
  if (value === true) flags.push(`--${name}`);
  else if (typeof value === 'string') flags.push(`--${name}=${value}`);
  else throw new Error(`loader option ${name} has no gen-types flag`);
}

const require = createRequire(join(protosPkg, 'package.json'));
const bin = join(dirname(require.resolve('@grpc/proto-loader/package.json')), 'build/bin/proto-loader-gen-types.js');
rmSync(outDir, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [bin, ...flags, '--grpcLib=@grpc/grpc-js', '--importFileExtension=.js', '--includeComments', '-I', 'proto', '-O', outDir, ...files],
  // Relative include paths keep the generated "Original file" comments machine-independent.
  { stdio: 'inherit', cwd: root },
);
