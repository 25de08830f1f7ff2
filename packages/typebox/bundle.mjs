#!/usr/bin/env node
// Replaces dist/index.js (tsc's re-exports of TypeBox) with TypeBox bundled into that one ES
// module, so a process loads one module instead of about 540 (see src/index.ts). Run by
// `npm run build` (and the test suite's pretest) after `tsc -b`, and by the Dockerfile.
// Rolldown is the dashboard's bundler (vite's), already installed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const entry = fileURLToPath(new URL('dist/index.js', import.meta.url));
const source = readFileSync(entry, 'utf8');
// Already bundled (tsc did not rewrite it since): nothing to do.
if (!/from ['"]typebox/.test(source)) process.exit(0);
const bundle = await rolldown({ input: entry, platform: 'node', logLevel: 'warn' });
await bundle.write({
  file: entry,
  format: 'esm',
  sourcemap: true,
  banner: '// TypeBox, bundled into one module by packages/typebox/bundle.mjs (see src/index.ts).',
});
await bundle.close();
