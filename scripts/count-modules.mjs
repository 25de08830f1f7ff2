#!/usr/bin/env node
// Imports a built service (by default the edge, services/edge/dist/index.js) with a module loader
// hook that records every module loaded, and prints how many came from each workspace and each dependency as JSON
// ({"services/edge": 31, "packages/contracts": 9, "node_modules/fastify": 28, ...}). The
// architecture test runs it to prove the edge loads no code of the services it calls (only their
// contracts), and that the built services load TypeBox as the one module packages/typebox makes.
//
//   node scripts/count-modules.mjs [entry]   (default: services/edge/dist/index.js)

import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { relative, resolve } from 'node:path';
import { realpathSync } from 'node:fs';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = resolve(root, process.argv[2] ?? 'services/edge/dist/index.js');

// The hook runs on the loader thread; it posts each loaded URL back over this port.
const { port1, port2 } = new MessageChannel();
const loaded = new Set();
port1.on('message', (url) => loaded.add(url));
port1.unref();

const hook = `
let port;
export async function initialize(data) { port = data.port; }
export async function load(url, context, nextLoad) {
  port.postMessage(url);
  return nextLoad(url, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { port: port2 }, transferList: [port2] });

await import(pathToFileURL(entry).href);
// Messages from the loader thread arrive asynchronously: let them drain.
await new Promise((done) => setTimeout(done, 50));

const counts = {};
for (const url of loaded) {
  if (!url.startsWith('file:')) continue;
  const path = relative(root, realpathSync(fileURLToPath(url)));
  const match = /^(packages|services)\/([^/]+)\//.exec(path);
  // Dependencies by package (node_modules/<name>, node_modules/@scope/<name>).
  const dependency = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  const workspace = match ? `${match[1]}/${match[2]}` : dependency ? `node_modules/${dependency[1]}` : 'other';
  counts[workspace] = (counts[workspace] ?? 0) + 1;
}
process.stdout.write(`${JSON.stringify(Object.fromEntries(Object.entries(counts).sort()), null, 2)}\n`);
process.exit(0);
