import { parseConfig } from '@gateway/config';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The admin routes behind the dashboard's overview, top spenders, video jobs and upstream
// health, against a running one-process gateway and simulators: each figure equals what the
// ledger, /metrics and the routers say.

const sick = new ChatSimulator({ flavor: 'openai', credential: 'c', models: ['m'], record: false });
const well = new ChatSimulator({ flavor: 'openai', credential: 'c', models: ['m'], record: false });
const ark = new VideoSimulator({ protocol: 'ark', credential: 'a', models: ['s'], queuedPolls: 0, runningPolls: 1 });
let gateway: TestGateway;

beforeAll(async () => {
  const [sickUrl, wellUrl, arkUrl] = [await sick.listen(), await well.listen(), await ark.listen()];
  gateway = await startTestGateway({
    env: { C: 'c', A: 'a' },
    config: parseConfig(
      `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1000, output_per_mtok: 1000 }
    deployments:
      - { provider: openai, model: m, api_base: "${sickUrl}/v1", api_key_env: C, weight: 99 }
      - { provider: openai, model: m, api_base: "${wellUrl}/v1", api_key_env: C, weight: 1 }
  - id: beta-dance
    mode: video
    video: { resolutions: [480p], default_resolution: 480p, seconds: [4, 30], ratios: ["16:9"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 480p: 10.70 } }
    deployments: [{ provider: ark, model: s, api_base: "${arkUrl}/api/v3", api_key_env: A }]
router: { retries: 1, allowed_fails: 1, cooldown_seconds: 30, timeout_ms: 10000 }
video: { poll_interval_ms: 50 }
`,
      'dashboard-api-test',
    ),
  });
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await Promise.all([sick.close(), well.close(), ark.close()]);
});

const today = () => new Date().toISOString().slice(0, 10);

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function chat(secret: string, content = 'hello'): Promise<Response> {
  return gateway.call('/v1/chat/completions', secret, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'g', messages: [{ role: 'user', content }] }),
  });
}

interface Overview {
  object: string;
  since: number;
  requests: { total: number; errors: number; client_errors: number; error_rate: number };
  latency_ms: { p50: number | null; p95: number | null };
  overhead_ms: { p50: number | null; p95: number | null };
  spend: { today_usd: number; month_usd: number; requests_today: number };
}

/** The sum of a counter's samples in the Prometheus text whose labels pass `keep`. */
function sumSamples(text: string, name: string, keep: (labels: string) => boolean): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`).exec(line);
    if (match && keep(match[1] as string)) sum += Number(match[2]);
  }
  return sum;
}

describe('admin routes behind the dashboard', () => {
  let teamId: string;
  let big: { id: string; key: string };
  let small: { id: string; key: string };

  beforeAll(async () => {
    teamId = (await json<{ id: string }>(await gateway.admin('POST', '/admin/v1/teams', { name: 'research' }), 201)).id;
    big = await gateway.createKey({ name: 'big-spender', models: ['*'], team_id: teamId });
    small = await gateway.createKey({ name: 'small-spender', models: ['*'] });
    for (let i = 0; i < 4; i += 1) await json(await chat(big.key, 'a longer prompt that costs more than the other'));
    await json(await chat(small.key, 'hi'));
    // A refused call (4xx) counts as a client error, not an error.
    expect(
      (
        await gateway.call('/v1/chat/completions', small.key, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(422);
  });

  it('overview: traffic as /metrics counts it, spend as the ledger has it', async () => {
    const overview = await json<Overview>(await gateway.admin('GET', '/admin/v1/overview'));
    const metrics = await (await fetch(gateway.metricsUrl as string)).text();
    const onV1 = (labels: string) => labels.includes('route="/v1/');
    const total = sumSamples(metrics, 'gateway_http_requests_total', onV1);
    const clientErrors = sumSamples(metrics, 'gateway_http_requests_total', (l) => onV1(l) && /status="4\d\d"/.test(l));
    expect(overview.object).toBe('overview');
    expect(overview.requests.total).toBe(total);
    expect(overview.requests.total).toBeGreaterThanOrEqual(6);
    expect(overview.requests.client_errors).toBe(clientErrors);
    expect(overview.requests.client_errors).toBeGreaterThanOrEqual(1);
    expect(overview.requests.errors).toBe(0);
    expect(overview.requests.error_rate).toBe(0);
    expect(overview.latency_ms.p50).toBeGreaterThan(0);
    expect(overview.latency_ms.p95).toBeGreaterThanOrEqual(overview.latency_ms.p50 as number);
    expect(overview.overhead_ms.p50).toBeGreaterThan(0);
    expect(overview.since).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));

    const daily = await json<{ data: { date: string; spend_usd: number; requests: number }[] }>(
      await gateway.admin('GET', `/admin/v1/spend/daily?from=${today()}&to=${today()}`),
    );
    const spentToday = daily.data.reduce((sum, row) => sum + row.spend_usd, 0);
    expect(overview.spend.today_usd).toBeCloseTo(spentToday, 9);
    expect(overview.spend.today_usd).toBeGreaterThan(0);
    expect(overview.spend.requests_today).toBe(daily.data.reduce((sum, row) => sum + row.requests, 0));
    expect(overview.spend.month_usd).toBeGreaterThanOrEqual(overview.spend.today_usd);
  });

  it('top spenders by key and by team: highest first, equal to each key and team', async () => {
    type Top = { object: string; data: { id: string; name: string | null; spend_usd: number; requests: number }[] };
    const byKey = await json<Top>(await gateway.admin('GET', '/admin/v1/spend/top?by=key'));
    const [first, second] = byKey.data;
    expect(first).toMatchObject({ id: big.id, name: 'big-spender', requests: 4 });
    expect(second).toMatchObject({ id: small.id, name: 'small-spender', requests: 1 });
    const bigKey = await json<{ lifetime_spent_usd: number }>(await gateway.admin('GET', `/admin/v1/keys/${big.id}`));
    expect(first?.spend_usd).toBeCloseTo(bigKey.lifetime_spent_usd, 9);

    const byTeam = await json<Top>(await gateway.admin('GET', `/admin/v1/spend/top?by=team&from=${today()}&to=${today()}&limit=5`));
    expect(byTeam.data).toEqual([{ id: teamId, name: 'research', spend_usd: first?.spend_usd, requests: 4 }]);

    const one = await json<Top>(await gateway.admin('GET', '/admin/v1/spend/top?limit=1'));
    expect(one.data.map((row) => row.id)).toEqual([big.id]);
  });

  it('video jobs of every key, by status, a page at a time', async () => {
    const create = (secret: string) =>
      gateway.call('/v1/videos', secret, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'beta-dance', prompt: 'a paper boat', seconds: 4 }),
      });
    const jobs = [
      await json<{ id: string }>(await create(big.key)),
      await json<{ id: string }>(await create(small.key)),
      await json<{ id: string }>(await create(small.key)),
    ];
    type Videos = {
      data: { id: string; key_id: string; status: string; model: string; created_at: number }[];
      has_more: boolean;
      next_after: string | null;
      counts: Record<string, number>;
    };
    const completed = async () => json<Videos>(await gateway.admin('GET', '/admin/v1/videos?status=completed'));
    await eventually(async () => (await completed()).counts.completed === 3, 10_000);
    const done = await completed();
    expect(done.data.map((job) => job.id).sort()).toEqual(jobs.map((job) => job.id).sort());
    expect(done.counts).toEqual({ queued: 0, in_progress: 0, completed: 3, failed: 0, cancelled: 0 });
    expect(done.data.find((job) => job.id === jobs[0]?.id)).toMatchObject({ key_id: big.id, model: 'beta-dance', status: 'completed' });

    // Newest first, one per page, to the end.
    const seen: string[] = [];
    let after = '';
    for (;;) {
      const page = await json<Videos>(await gateway.admin('GET', `/admin/v1/videos?limit=1${after ? `&after=${after}` : ''}`));
      seen.push(...page.data.map((job) => job.id));
      if (!page.has_more) break;
      after = page.next_after as string;
    }
    expect(seen).toEqual(done.data.map((job) => job.id));

    const mine = await json<Videos>(await gateway.admin('GET', `/admin/v1/videos?key_id=${small.id}`));
    expect(mine.data.map((job) => job.key_id)).toEqual([small.id, small.id]);
    expect(mine.counts.completed).toBe(2);
    expect((await json<Videos>(await gateway.admin('GET', '/admin/v1/videos?status=failed'))).data).toEqual([]);
  });

  it('upstream health: a failing deployment shows its errors and its cooldown, the other healthy', async () => {
    type Upstreams = {
      data: {
        kind: string;
        group: string;
        deployment: string;
        index: number;
        state: string;
        until: number | null;
        errors_5m: number;
        consecutive_failures: number;
        last_error: { kind: string; at: number } | null;
      }[];
      unavailable: string[];
    };
    const before = await json<Upstreams>(await gateway.admin('GET', '/admin/v1/upstreams'));
    expect(before.unavailable).toEqual([]);
    expect(before.data.map((d) => [d.kind, d.group, d.index, d.state])).toEqual([
      ['chat', 'g', 0, 'healthy'],
      ['chat', 'g', 1, 'healthy'],
      ['video', 'beta-dance', 0, 'healthy'],
    ]);

    // The heavier deployment fails once: the call is served by the other, the sick one cools down.
    sick.fail({ status: 500 });
    // Weighted 99 to 1, the sick one is nearly always tried first; calls go on until it was.
    const health = async () => json<Upstreams>(await gateway.admin('GET', '/admin/v1/upstreams'));
    await eventually(async () => {
      await json(await chat(small.key));
      return (await health()).data[0]?.errors_5m === 1;
    });
    const served = await health();
    const [sickView, wellView] = served.data;
    expect(sickView).toMatchObject({ state: 'cooling_down', errors_5m: 1, deployment: 'openai/m#0' });
    expect(sickView?.last_error?.kind).toBeTruthy();
    expect(sickView?.until).toBeGreaterThan(Date.now() / 1000);
    expect(wellView).toMatchObject({ state: 'healthy', errors_5m: 0, last_error: null, until: null });
  });

  it('each route wants the admin token and refuses bad queries with a 4xx', async () => {
    for (const path of ['/admin/v1/overview', '/admin/v1/spend/top', '/admin/v1/videos', '/admin/v1/upstreams']) {
      expect((await gateway.call(path)).status, path).toBe(401);
      expect((await gateway.call(path, small.key)).status, path).toBe(401);
    }
    for (const query of [
      'spend/top?by=group',
      'spend/top?limit=0',
      'spend/top?from=yesterday',
      'videos?status=done',
      'videos?limit=5000',
      'videos?after=video_nope',
    ]) {
      const response = await gateway.admin('GET', `/admin/v1/${query}`);
      expect(response.status, query).toBeGreaterThanOrEqual(400);
      expect(response.status, query).toBeLessThan(500);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBeTruthy();
    }
  });
});
