#!/usr/bin/env node
// Generates test/fixtures/legacy-embedded/: a data folder written by a release that still kept its
// data in the embedded nedb store, plus fixture.json, what the import tests check against.
//
//   node scripts/make-legacy-fixture.mjs /path/to/release-checkout   (built: tsc -b, node_modules)
//
// It runs that release's own gateway in this process (startGateway from its dist) against
// simulated upstreams, creates keys, makes chat calls and video jobs that are billed, closes the
// gateway gracefully (which compacts every file) and copies the folder. Everything is imported
// from the release's folder, nothing from this checkout, so this keeps working once nedb has left
// our dependencies.

import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const release = process.argv[2];
if (!release) {
  console.error('usage: node scripts/make-legacy-fixture.mjs <release checkout, built>');
  process.exit(2);
}
const root = resolve(release);
const out = fileURLToPath(new URL('../test/fixtures/legacy-embedded/', import.meta.url));

const load = (path) => import(pathToFileURL(join(root, path)).href);
const { startGateway } = await load('packages/cli/dist/index.js');
const { ChatSimulator, VideoSimulator } = await load('packages/simulators/dist/index.js');
const { parseConfig } = await load('packages/config/dist/index.js');
const { createLogger } = await load('packages/logging/dist/index.js');
// Only to count documents the way the release itself reads them.
const Datastore = createRequire(join(root, 'package.json'))('@seald-io/nedb');

const ADMIN_TOKEN = 'fixture-admin-token-0123456789';

const deepseek = new ChatSimulator({ flavor: 'deepseek', credential: 'ds-credential', models: ['deepseek-v4-flash', 'deepseek-v4-pro'] });
const ark = new VideoSimulator({
  protocol: 'ark',
  credential: 'ark-credential',
  models: ['seedance-sim'],
  queuedPolls: 1,
  runningPolls: 1,
  clipBytes: 1024,
});
const minimax = new VideoSimulator({
  protocol: 'minimax',
  credential: 'mm-credential',
  models: ['MiniMax-H3'],
  queuedPolls: 1,
  runningPolls: 1,
  clipBytes: 1024,
});

// The example configuration's group ids, so that the fixture's keys and jobs make sense to a
// gateway started on gateway.example.yaml.
function config(ds, arkUrl, mmUrl) {
  return `
groups:
  - id: gamma-flash
    mode: chat
    aliases: [flash]
    max_input_tokens: 131072
    max_output_tokens: 8192
    reasoning: { default_effort: high }
    price: { input_per_mtok: 0.14, output_per_mtok: 0.28 }
    deployments: [{ provider: deepseek, model: deepseek-v4-flash, api_base: "${ds}", api_key_env: DS_KEY }]
  - id: gamma-v4-pro
    mode: chat
    aliases: [v4-pro]
    max_input_tokens: 131072
    max_output_tokens: 32768
    reasoning: { default_effort: high }
    price: { input_per_mtok: 0.55, output_per_mtok: 2.19 }
    deployments: [{ provider: deepseek, model: deepseek-v4-pro, api_base: "${ds}", api_key_env: DS_KEY }]
  - id: alpha-h3
    mode: video
    video: { resolutions: [768P, 2K], default_resolution: 768P, seconds: [4, 15], ratios: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"], image_input: first_frame }
    price: { per_second_by_resolution: { 768P: 0.08, 2K: 0.13 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "${mmUrl}", api_key_env: MM_KEY }]
  - id: beta-dance
    mode: video
    video: { resolutions: [480p, 720p, 1080p], default_resolution: 720p, seconds: [4, 30], ratios: ["16:9", "4:3", "1:1", "3:4", "9:16", "21:9"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 480p: 10.70, 720p: 10.70, 1080p: 11.70 } }
    deployments: [{ provider: ark, model: seedance-sim, api_base: "${arkUrl}/api/v3", api_key_env: ARK_KEY }]
video: { poll_interval_ms: 100, retention_seconds: 315360000 }
server: { key_cache_ttl_ms: 0 }
`;
}

async function eventually(check, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'legacy-fixture-'));
const [dsUrl, arkUrl, mmUrl] = [await deepseek.listen(), await ark.listen(), await minimax.listen()];
const gateway = await startGateway({
  config: parseConfig(config(dsUrl, arkUrl, mmUrl), 'legacy-fixture'),
  logger: createLogger({ level: 'warn', destination: process.stderr }),
  // A clean environment: no MONGODB_URI or NATS_URL from the caller's shell.
  env: {
    GATEWAY_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_TOKEN,
    DS_KEY: 'ds-credential',
    ARK_KEY: 'ark-credential',
    MM_KEY: 'mm-credential',
  },
});

async function request(method, path, secret, body) {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text;
}
const json = async (...args) => JSON.parse(await request(...args));

async function createKey(body) {
  const { id, key } = await json('POST', '/admin/v1/keys', ADMIN_TOKEN, body);
  return { id, secret: key, name: body.name };
}

async function chat(secret, model, content, stream = false) {
  const text = await request('POST', '/v1/chat/completions', secret, {
    model,
    messages: [{ role: 'user', content }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
  if (stream && !text.includes('data: [DONE]')) throw new Error('stream did not finish');
}

/** The key's figures once every call's spend has reached the ledger. */
async function settledUsage(secret, requests) {
  let usage;
  await eventually(async () => {
    usage = await json('GET', '/v1/usage', secret);
    const counted = usage.by_model.reduce((sum, m) => sum + m.requests, 0);
    return counted === requests && usage.budget.reserved_usd === 0;
  });
  return {
    spent_nano_usd: Math.round(usage.budget.spent_usd * 1e9),
    by_model: usage.by_model
      .map((m) => ({ model: m.model, requests: m.requests, spent_nano_usd: Math.round(m.spent_usd * 1e9) }))
      .sort((a, b) => a.model.localeCompare(b.model)),
  };
}

const keys = [];
const videos = [];
try {
  const chatKey = await createKey({ name: 'fixture-chat', models: ['gamma-flash', 'gamma-v4-pro'], budget_usd: 5, rpm: 600 });
  const videoKey = await createKey({ name: 'fixture-video', models: ['alpha-h3', 'beta-dance'], budget_usd: 50 });
  const revokedKey = await createKey({ name: 'fixture-revoked', models: ['gamma-flash'], budget_usd: 1 });

  await chat(chatKey.secret, 'gamma-flash', 'Hello there');
  await chat(chatKey.secret, 'flash', 'Say something short');
  await chat(chatKey.secret, 'gamma-v4-pro', 'Think about it');
  await chat(chatKey.secret, 'gamma-flash', 'Stream to me', true);
  await chat(chatKey.secret, 'gamma-v4-pro', 'Stream and think', true);
  await chat(revokedKey.secret, 'gamma-flash', 'One call before I go');

  for (const body of [
    { model: 'beta-dance', prompt: 'A fox in the snow', seconds: 5, resolution: '720p' },
    { model: 'alpha-h3', prompt: 'A lighthouse at dusk', seconds: 6 },
  ]) {
    const job = await json('POST', '/v1/videos', videoKey.secret, body);
    let done = job;
    await eventually(async () => (done = await json('GET', `/v1/videos/${job.id}`, videoKey.secret)).status === 'completed');
    videos.push({ id: job.id, key_id: videoKey.id, model: body.model, status: done.status });
  }

  keys.push({ ...chatKey, revoked: false, rpm: 600, ...(await settledUsage(chatKey.secret, 5)) });
  keys.push({ ...videoKey, revoked: false, rpm: null, ...(await settledUsage(videoKey.secret, 2)) });
  // Its figures are read while /v1/usage still answers it, then it is revoked.
  const revokedUsage = await settledUsage(revokedKey.secret, 1);
  await request('DELETE', `/admin/v1/keys/${revokedKey.id}`, ADMIN_TOKEN);
  keys.push({ ...revokedKey, revoked: true, rpm: null, ...revokedUsage });
  for (const key of keys) {
    // The admin view must agree with what /v1/usage said: nothing was still in flight.
    const view = await json('GET', `/admin/v1/keys/${key.id}`, ADMIN_TOKEN);
    if (Math.round(view.spent_usd * 1e9) !== key.spent_nano_usd) throw new Error(`key ${key.id}: spend still moving`);
  }
} finally {
  await gateway.close();
  await Promise.all([deepseek.close(), ark.close(), minimax.close()]);
}

// Documents per collection as the release's nedb reads them, counted on a throwaway copy
// (loading a datastore rewrites its file).
async function countDocuments(folder) {
  const scratch = await mkdtemp(join(tmpdir(), 'legacy-count-'));
  try {
    await cp(folder, scratch, { recursive: true });
    const counts = {};
    const files = (await readdir(scratch, { recursive: true })).filter((f) => f.endsWith('.db')).sort();
    for (const file of files) {
      const db = new Datastore({ filename: join(scratch, file) });
      await db.loadDatabaseAsync();
      counts[file] = await db.countAsync({});
    }
    return counts;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await rm(out, { recursive: true, force: true });
await cp(dataDir, out, { recursive: true });
await rm(dataDir, { recursive: true, force: true });

let commit = 'unknown';
try {
  commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  /* not a git checkout: the commit stays unknown */
}

const fixture = {
  about: 'Data folder written by the embedded (nedb) store of the release below; see scripts/make-legacy-fixture.mjs.',
  release: { commit, generated_at: new Date().toISOString() },
  admin_token: ADMIN_TOKEN,
  keys,
  videos,
  files: await countDocuments(out),
};
await writeFile(join(out, 'fixture.json'), `${JSON.stringify(fixture, null, 2)}\n`);

let bytes = 0;
for (const file of await readdir(out, { recursive: true })) {
  const info = await stat(join(out, file));
  if (info.isFile()) bytes += info.size;
}
console.log(`wrote ${relative(process.cwd(), out) || out}: ${bytes} bytes`, fixture.files);
