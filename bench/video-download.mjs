#!/usr/bin/env node
// Clip download benchmark: a 1 GiB clip fetched through the gateway and directly from the
// simulator, alternating, in one run; prints throughput and the gateway's RSS growth.
// Usage: npm run build && node bench/video-download.mjs   (CLIP_BYTES, BENCH_ROUNDS=3)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { cpuSeconds, rssMiB } from './lib/procs.mjs';
import { scratchDir, startGateway, startVideoUpstream } from './lib/start.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const tmp = scratchDir('gateway-video-bench-');
const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);

const upstream = await startVideoUpstream({ clipBytes: process.env.CLIP_BYTES ?? '' });
const arkBase = `${upstream.url}/api/v3`;
writeFileSync(
  join(tmp, 'gateway.yaml'),
  `
groups:
  - id: beta-dance
    mode: video
    video: { resolutions: [480p, 720p, 1080p], default_resolution: 720p, seconds: [4, 30], ratios: ["16:9"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 480p: 10.70, 720p: 10.70, 1080p: 11.70 } }
    deployments: [{ provider: ark, model: seedance-bench, api_base: "${arkBase}", api_key_env: ARK_KEY }]
video: { poll_interval_ms: 200 }
`,
);
const gateway = await startGateway({
  mode: 'one',
  env: {
    GATEWAY_CONFIG: join(tmp, 'gateway.yaml'),
    GATEWAY_DATA_DIR: join(tmp, 'data'),
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_TOKEN,
    ARK_KEY: 'bench-credential',
  },
});
const url = gateway.url;

/** @type {(target: string, body: unknown, auth: string) => Promise<any>} */
const post = async (target, body, auth) => {
  const r = await request(target, {
    method: 'POST',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return r.body.json();
};
const { key } = await post(`${url}/admin/v1/keys`, { name: 'bench', models: ['*'], budget_usd: 1000 }, ADMIN_TOKEN);
const job = await post(`${url}/v1/videos`, { model: 'beta-dance', prompt: 'bench', seconds: 4 }, key);
for (;;) {
  const r = await request(`${url}/v1/videos/${job.id}`, { headers: { authorization: `Bearer ${key}` } });
  if (/** @type {any} */ (await r.body.json()).status === 'completed') break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
// The direct path: a task made straight at the simulator, downloaded from its signed address.
const direct = await post(
  `${arkBase}/contents/generations/tasks`,
  { model: 'seedance-bench', content: [{ type: 'text', text: 'bench' }], resolution: '720p', ratio: '16:9', duration: 4 },
  'bench-credential',
);
let directUrl;
for (;;) {
  const r = await request(`${arkBase}/contents/generations/tasks/${direct.id}`, { headers: { authorization: 'Bearer bench-credential' } });
  /** @type {any} */
  const task = await r.body.json();
  if (task.status === 'succeeded') {
    directUrl = task.content.video_url;
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}

async function download(target, headers) {
  const cpu = [upstream.child.pid, gateway.child.pid].map(cpuSeconds);
  const own = process.cpuUsage();
  const started = performance.now();
  const response = await request(target, { headers });
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  const mine = process.cpuUsage(own);
  const gib = bytes / 2 ** 30;
  return {
    bytes,
    seconds: (performance.now() - started) / 1000,
    status: response.statusCode,
    cpuPerGiB: {
      upstream: (cpuSeconds(upstream.child.pid) - cpu[0]) / gib,
      gateway: (cpuSeconds(gateway.child.pid) - cpu[1]) / gib,
      client: (mine.user + mine.system) / 1e6 / gib,
    },
  };
}

const baseline = rssMiB(gateway.child.pid);
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMiB(gateway.child.pid));
}, 50);
const best = { direct: 0, gateway: 0 };
for (let round = 0; round < ROUNDS; round += 1) {
  const d = await download(directUrl, {});
  const g = await download(`${url}/v1/videos/${job.id}/content`, { authorization: `Bearer ${key}` });
  if (d.status !== 200 || g.status !== 200 || d.bytes !== g.bytes) throw new Error(`bad download: ${JSON.stringify({ d, g })}`);
  const dRate = d.bytes / d.seconds / 2 ** 20;
  const gRate = g.bytes / g.seconds / 2 ** 20;
  best.direct = Math.max(best.direct, dRate);
  best.gateway = Math.max(best.gateway, gRate);
  const cpu = (r) =>
    Object.entries(r.cpuPerGiB)
      .map(([n, v]) => `${n} ${v.toFixed(2)}`)
      .join(', ');
  log(
    `round ${round + 1}: ${(d.bytes / 2 ** 30).toFixed(2)} GiB  direct ${dRate.toFixed(0)} MiB/s (CPU s/GiB: ${cpu(d)})  gateway ${gRate.toFixed(0)} MiB/s (CPU s/GiB: ${cpu(g)})`,
  );
}
clearInterval(sampler);
log(
  `best: direct ${best.direct.toFixed(0)} MiB/s, gateway ${best.gateway.toFixed(0)} MiB/s, ratio ${((100 * best.gateway) / best.direct).toFixed(1)}%`,
);
log(`gateway RSS: ${baseline.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB peak, growth ${(peak - baseline).toFixed(0)} MiB`);
process.stdout.write(
  `${JSON.stringify({ directMiBps: best.direct, gatewayMiBps: best.gateway, ratio: best.gateway / best.direct, rssBeforeMiB: baseline, rssPeakMiB: peak })}\n`,
);
process.exit(0);
