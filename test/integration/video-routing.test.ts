import { parseConfig } from '@gateway/config';
import { VideoSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Video task creation through the upstream kit, end to end: the real gateway in front of MiniMax
// simulators, one per deployment, so each deployment's traffic can be counted. Nothing inside the
// gateway is mocked; a refused create is the simulator answering 500 or 429 as MiniMax does.

const SPEC = 'video: { resolutions: [768P], default_resolution: 768P, seconds: [4, 10], ratios: ["16:9"] }';

function config(first: string, second: string, spare: string): string {
  return `
groups:
  - id: clip
    mode: video
    fallbacks: [clip-spare]
    ${SPEC}
    price: { per_second_by_resolution: { 768P: 0.08 } }
    deployments:
      # Weighted so the failing deployment is almost always chosen first while it is healthy.
      - { provider: minimax, model: MiniMax-H3, api_base: "${first}", api_key_env: FIRST_KEY, weight: 50 }
      - { provider: minimax, model: MiniMax-H3, api_base: "${second}", api_key_env: SECOND_KEY, weight: 1 }
  - id: clip-spare
    mode: video
    ${SPEC}
    price: { per_second_by_resolution: { 768P: 0.05 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "${spare}", api_key_env: SPARE_KEY }]
router: { retries: 1, allowed_fails: 2, cooldown_seconds: 600 }
video: { poll_interval_ms: 100 }
server: { key_cache_ttl_ms: 0 }
`;
}

interface Setup {
  gateway: TestGateway;
  key: string;
  first: VideoSimulator;
  second: VideoSimulator;
  spare: VideoSimulator;
}

const simulator = (credential: string) =>
  new VideoSimulator({ protocol: 'minimax', credential, models: ['MiniMax-H3'], queuedPolls: 1, runningPolls: 1 });

async function setUp(): Promise<Setup> {
  const first = simulator('first-credential');
  const second = simulator('second-credential');
  const spare = simulator('spare-credential');
  const urls = [await first.listen(), await second.listen(), await spare.listen()] as const;
  const gateway = await startTestGateway({
    config: parseConfig(config(...urls), 'video-routing-test'),
    env: { FIRST_KEY: 'first-credential', SECOND_KEY: 'second-credential', SPARE_KEY: 'spare-credential' },
  });
  const { key } = await gateway.createKey({ models: ['clip'], budget_usd: 100 });
  return { gateway, key, first, second, spare };
}

async function tearDown(setup: Setup): Promise<void> {
  await stopTestGateway(setup.gateway);
  await Promise.all([setup.first.close(), setup.second.close(), setup.spare.close()]);
}

const creates = (sim: VideoSimulator) => sim.requests.filter((r) => r.method === 'POST').length;

async function createJob(setup: Setup): Promise<{ id: string; status: string }> {
  const response = await setup.gateway.call('/v1/videos', setup.key, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'clip', prompt: 'A kite over a beach', seconds: 5 }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; status: string };
}

async function completed(setup: Setup, id: string): Promise<void> {
  await eventually(async () => {
    const job = (await (await setup.gateway.call(`/v1/videos/${id}`, setup.key)).json()) as { status: string };
    return job.status === 'completed';
  }, 10_000);
}

async function spentNanos(setup: Setup): Promise<number> {
  const usage = (await (await setup.gateway.call('/v1/usage', setup.key)).json()) as { budget: { spent_usd: number } };
  return Math.round(usage.budget.spent_usd * 1e9);
}

// A 429 without Retry-After counts towards a cooldown like a 500; one with Retry-After pauses the
// deployment for that long instead (test/integration/router-outage.test.ts, the router's tests).
for (const status of [500, 429]) {
  describe(`a deployment answering ${status} to task creation`, () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await setUp();
      setup.first.fail(...Array.from({ length: 50 }, () => ({ status })));
    });
    afterAll(() => tearDown(setup));

    it('has the job created on the next deployment, and cools down after allowed_fails', async () => {
      const jobs: string[] = [];
      // Until the failing deployment has been tried allowed_fails (2) times: each of those jobs
      // still succeeds, on the second deployment.
      for (let i = 0; i < 40 && creates(setup.first) < 2; i += 1) jobs.push((await createJob(setup)).id);
      expect(creates(setup.first)).toBe(2);
      // Cooled down: the next jobs never reach it, though it is weighted 50 to 1.
      for (let i = 0; i < 10; i += 1) jobs.push((await createJob(setup)).id);
      expect(creates(setup.first)).toBe(2);
      expect(setup.first.createdTasks).toBe(0);
      expect(setup.second.createdTasks).toBe(jobs.length);
      expect(creates(setup.spare)).toBe(0);

      // The job stays on the deployment that accepted it: polled there, billed at its group's price.
      // (The poller may have finished it already under load, so only where it was polled is asserted.)
      await completed(setup, jobs[0]!);
      expect(setup.second.requests.some((r) => r.method === 'GET')).toBe(true);
      expect(setup.first.requests.some((r) => r.method === 'GET')).toBe(false);
      await eventually(async () => (await spentNanos(setup)) >= 5 * 80_000_000, 10_000);
    });
  });
}

describe('fallbacks', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp();
  });
  afterAll(() => tearDown(setup));

  it("are tried after every deployment of the group, and the job is billed at the serving group's price", async () => {
    setup.first.fail({ status: 500 });
    setup.second.fail({ status: 503 });
    const job = await createJob(setup);
    // Both of the group's own deployments were tried (retries: 1) before the fallback group.
    expect(creates(setup.first)).toBe(1);
    expect(creates(setup.second)).toBe(1);
    expect(setup.spare.createdTasks).toBe(1);
    await completed(setup, job.id);
    expect(setup.spare.requests.some((r) => r.method === 'GET')).toBe(true);
    expect(setup.second.requests.some((r) => r.method === 'GET')).toBe(false);
    // clip-spare's 0.05 USD per second, not clip's 0.08.
    await eventually(async () => (await spentNanos(setup)) > 0, 10_000);
    expect(await spentNanos(setup)).toBe(5 * 50_000_000);
  });

  it('answer with the last failure when every deployment refuses', async () => {
    setup.first.fail({ status: 500 });
    setup.second.fail({ status: 500 });
    setup.spare.fail({ status: 429, retryAfter: 7 }, { status: 429, retryAfter: 7 });
    const before = await spentNanos(setup);
    const response = await setup.gateway.call('/v1/videos', setup.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'clip', prompt: 'A kite', seconds: 5 }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await spentNanos(setup)).toBe(before);
  });
});
