import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '@gateway/config';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Upgrading in place: the gateway starts on a data folder written by the previous release (its
// embedded nedb store; test/fixtures/legacy-embedded, made by scripts/make-legacy-fixture.mjs),
// imports it once, and serves the keys, spend and video jobs it holds. A restart imports nothing
// again.

const FIXTURE = fileURLToPath(new URL('../fixtures/legacy-embedded/', import.meta.url));

interface ByModel {
  model: string;
  requests: number;
  spent_nano_usd: number;
}
interface ReleaseFixture {
  keys: { id: string; secret: string; name: string; revoked: boolean; rpm: number | null; spent_nano_usd: number; by_model: ByModel[] }[];
  videos: { id: string; key_id: string; model: string; status: string }[];
  files: Record<string, number>;
}
const fixture = JSON.parse(await readFile(join(FIXTURE, 'fixture.json'), 'utf8')) as ReleaseFixture;

// The groups the fixture's keys and jobs name (gateway.example.yaml's), with upstreams nobody
// calls; the jobs are old, so they are kept long enough to still be readable.
const config = parseConfig(
  `
groups:
  - id: gamma-flash
    mode: chat
    aliases: [flash]
    max_input_tokens: 131072
    max_output_tokens: 8192
    price: { input_per_mtok: 0.14, output_per_mtok: 0.28 }
    deployments: [{ provider: deepseek, model: deepseek-v4-flash, api_base: "http://127.0.0.1:9", api_key_env: DS_KEY }]
  - id: gamma-v4-pro
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 32768
    price: { input_per_mtok: 0.55, output_per_mtok: 2.19 }
    deployments: [{ provider: deepseek, model: deepseek-v4-pro, api_base: "http://127.0.0.1:9", api_key_env: DS_KEY }]
  - id: alpha-h3
    mode: video
    video: { resolutions: [768P, 2K], default_resolution: 768P, seconds: [4, 15], ratios: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"], image_input: first_frame }
    price: { per_second_by_resolution: { 768P: 0.08, 2K: 0.13 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "http://127.0.0.1:9", api_key_env: MM_KEY }]
  - id: beta-dance
    mode: video
    video: { resolutions: [480p, 720p, 1080p], default_resolution: 720p, seconds: [4, 30], ratios: ["16:9", "4:3", "1:1", "3:4", "9:16", "21:9"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 480p: 10.70, 720p: 10.70, 1080p: 11.70 } }
    deployments: [{ provider: ark, model: seedance-sim, api_base: "http://127.0.0.1:9/api/v3", api_key_env: ARK_KEY }]
video: { retention_seconds: 315360000 }
server: { key_cache_ttl_ms: 0 }
`,
  'legacy-import-test',
);
const env = { DS_KEY: 'unused', MM_KEY: 'unused', ARK_KEY: 'unused' };

const nanos = (usd: number) => Math.round(usd * 1e9);
const dirs: string[] = [];
let gateway: TestGateway | undefined;
afterAll(async () => {
  if (gateway) await stopTestGateway(gateway, { keepData: true });
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** What the fixture says the previous release reported, checked over HTTP. */
async function expectReleaseFigures(gw: TestGateway): Promise<void> {
  // Earlier entries get their spend-log order and daily rows in the background after the start.
  const calls = fixture.keys.flatMap((k) => k.by_model).reduce((sum, m) => sum + m.requests, 0);
  await eventually(async () => {
    const logs = (await (await gw.admin('GET', '/admin/v1/spend/logs?limit=1000')).json()) as { data: unknown[] };
    return logs.data.length === calls;
  }, 10_000);
  // Recorded before cached tokens, cache savings and estimates were: they read as none.
  const logs = (await (await gw.admin('GET', '/admin/v1/spend/logs?limit=1000')).json()) as {
    data: { cached_tokens: number; cache_saved_usd: number; estimated: boolean }[];
  };
  for (const row of logs.data) expect(row).toMatchObject({ cached_tokens: 0, cache_saved_usd: 0, estimated: false });
  const daily = (await (await gw.admin('GET', '/admin/v1/spend/daily?from=2026-01-01&to=2026-12-31')).json()) as {
    data: { cached_tokens: number; cache_saved_usd: number }[];
  };
  expect(daily.data.length).toBeGreaterThan(0);
  for (const row of daily.data) expect(row).toMatchObject({ cached_tokens: 0, cache_saved_usd: 0 });
  for (const key of fixture.keys) {
    const response = await gw.call('/v1/usage', key.secret);
    if (key.revoked) {
      expect(response.status, key.name).toBe(401);
      continue;
    }
    expect(response.status, key.name).toBe(200);
    const usage = (await response.json()) as {
      key: { id: string; name: string };
      budget: { spent_usd: number; reserved_usd: number };
      by_model: { model: string; spent_usd: number; requests: number }[];
      rate_limits: { rpm: number | null };
    };
    expect(usage.key).toMatchObject({ id: key.id, name: key.name });
    expect(nanos(usage.budget.spent_usd), key.name).toBe(key.spent_nano_usd);
    expect(usage.budget.reserved_usd, key.name).toBe(0);
    const byModel = usage.by_model.map((m) => ({ model: m.model, requests: m.requests, spent_nano_usd: nanos(m.spent_usd) }));
    expect(
      byModel.sort((a, b) => a.model.localeCompare(b.model)),
      key.name,
    ).toEqual(key.by_model);
    expect(usage.rate_limits.rpm, key.name).toBe(key.rpm);
  }

  const stranger = fixture.keys.find((k) => !k.revoked && !fixture.videos.some((v) => v.key_id === k.id));
  for (const video of fixture.videos) {
    const owner = fixture.keys.find((k) => k.id === video.key_id);
    const response = await gw.call(`/v1/videos/${video.id}`, owner?.secret);
    expect(response.status, video.id).toBe(200);
    expect(await response.json()).toMatchObject({ id: video.id, object: 'video', status: video.status });
    // Still its owner's alone.
    if (stranger) expect((await gw.call(`/v1/videos/${video.id}`, stranger.secret)).status, video.id).toBe(404);
  }

  const listed = (await (await gw.admin('GET', '/admin/v1/keys')).json()) as {
    data: { id: string; name: string; revoked_at: number | null }[];
  };
  expect(listed.data.map((k) => k.id).sort()).toEqual(fixture.keys.map((k) => k.id).sort());
  for (const key of fixture.keys) {
    expect(listed.data.find((k) => k.id === key.id)?.revoked_at !== null, key.name).toBe(key.revoked);
    // The revoked key's spend, which /v1/usage no longer answers for it.
    const view = (await (await gw.admin('GET', `/admin/v1/keys/${key.id}`)).json()) as { spent_usd: number };
    expect(nanos(view.spent_usd), key.name).toBe(key.spent_nano_usd);
  }
}

describe('a data folder written by the previous release', () => {
  it('is imported at the first start, served as it was, and not imported again at the next', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-legacy-it-'));
    dirs.push(dataDir);
    await cp(FIXTURE, dataDir, { recursive: true, filter: (source) => !source.endsWith('fixture.json') });

    gateway = await startTestGateway({ dataDir, config, env });
    await expectReleaseFigures(gateway);
    const names = await readdir(dataDir);
    expect(names).toContain('imported-legacy-embedded');
    for (const file of Object.keys(fixture.files)) expect(names).not.toContain(file);
    expect(gateway.logs.join('').match(/imported-legacy-embedded/g) ?? []).not.toHaveLength(0);
    await stopTestGateway(gateway, { keepData: true });
    gateway = undefined;

    gateway = await startTestGateway({ dataDir, config, env });
    expect(gateway.logs.join('')).not.toContain('imported-legacy-embedded');
    await expectReleaseFigures(gateway);
    expect((await readdir(join(dataDir, 'imported-legacy-embedded'))).sort()).toEqual(Object.keys(fixture.files).sort());
  });
});
