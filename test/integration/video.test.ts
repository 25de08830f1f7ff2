import { parseConfig } from '@gateway/config';
import { VideoSimulator } from '@gateway/simulators';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Video generation end to end: the openai SDK and raw HTTP against the whole gateway, with
// strict simulators of BytePlus ModelArk (beta-dance) and MiniMax (alpha groups).

const ark = new VideoSimulator({
  protocol: 'ark',
  credential: 'ark-credential',
  models: ['seedance-sim'],
  queuedPolls: 1,
  runningPolls: 1,
});
const minimax = new VideoSimulator({
  protocol: 'minimax',
  credential: 'mm-credential',
  models: ['MiniMax-H3', 'MiniMax-H3-Max'],
  queuedPolls: 1,
  runningPolls: 1,
});

function config(arkUrl: string, mmUrl: string, retention = 604800): string {
  return `
groups:
  - id: alpha-h3
    mode: video
    aliases: [h3]
    video: { resolutions: [768P, 2K], default_resolution: 768P, seconds: [4, 15], ratios: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"], image_input: first_frame }
    price: { per_second_by_resolution: { 768P: 0.08, 2K: 0.13 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "${mmUrl}", api_key_env: MM_KEY }]
  - id: alpha-h3-max
    mode: video
    video: { resolutions: [480P, 768P], default_resolution: 768P, seconds: [5, 15], ratios: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"], image_input: first_frame }
    price: { per_second_by_resolution: { 480P: 0.05, 768P: 0.08 } }
    deployments: [{ provider: minimax, model: MiniMax-H3-Max, api_base: "${mmUrl}", api_key_env: MM_KEY }]
  - id: beta-dance
    mode: video
    video: { resolutions: [480p, 720p, 1080p], default_resolution: 720p, seconds: [4, 30], ratios: ["16:9", "4:3", "1:1", "3:4", "9:16", "21:9"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 480p: 10.70, 720p: 10.70, 1080p: 11.70 } }
    deployments: [{ provider: ark, model: seedance-sim, api_base: "${arkUrl}/api/v3", api_key_env: ARK_KEY }]
video: { poll_interval_ms: 100, retention_seconds: ${retention} }
server: { key_cache_ttl_ms: 0 }
`;
}

let gateway: TestGateway;
let urls: [string, string];
let key: string;
let client: OpenAI;
const env = { ARK_KEY: 'ark-credential', MM_KEY: 'mm-credential' };

beforeAll(async () => {
  urls = [await ark.listen(), await minimax.listen()];
  gateway = await startTestGateway({ config: parseConfig(config(...urls), 'video-test'), env });
  ({ key } = await gateway.createKey({ models: ['alpha-h3', 'alpha-h3-max', 'beta-dance'], budget_usd: 100 }));
  client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await ark.close();
  await minimax.close();
});

type Job = Record<string, unknown> & { id: string; status: string };

async function create(body: Record<string, unknown>, secret = key): Promise<Response> {
  return gateway.call('/v1/videos', secret, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function get(id: string, secret = key): Promise<Job> {
  return (await (await gateway.call(`/v1/videos/${id}`, secret)).json()) as Job;
}

async function waitFor(id: string, statuses: string[]): Promise<Job> {
  let job: Job = { id, status: '' };
  await eventually(async () => statuses.includes((job = await get(id)).status), 10_000);
  return job;
}

async function spentNanos(secret = key): Promise<number> {
  const usage = (await (await gateway.call('/v1/usage', secret)).json()) as { budget: { spent_usd: number } };
  return Math.round(usage.budget.spent_usd * 1e9);
}

function lastTaskId(sim: VideoSimulator): string {
  const query = [...sim.requests].reverse().find((r) => r.method === 'GET' && /tasks\/|video_generation\//.test(r.path));
  return decodeURIComponent(query?.path.split('/').pop() ?? '');
}

const noSecrets = (text: string) => {
  for (const marker of ['X-Signature', '/clips/', 'cgt-', 'ark-credential', 'mm-credential', 'task_id']) expect(text).not.toContain(marker);
};

describe('create', () => {
  it('accepts JSON and answers queued at once, with nothing of the provider in the job', async () => {
    const response = await create({ model: 'beta-dance', prompt: 'A cat surfing a wave', seconds: 5 });
    expect(response.status).toBe(200);
    const job = (await response.json()) as Job;
    expect(job).toEqual({
      id: expect.stringMatching(/^video_[0-9a-f]{32}$/),
      object: 'video',
      model: 'beta-dance',
      status: 'queued',
      progress: 0,
      created_at: expect.any(Number),
      seconds: '5',
      // The record's 7-day retention.
      expires_at: (job as unknown as { created_at: number }).created_at + 7 * 24 * 3600,
    });
    noSecrets(JSON.stringify(job));
    const sent = ark.requests.find((r) => r.method === 'POST')?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'seedance-sim',
      resolution: '720p',
      ratio: '16:9',
      duration: 5,
      content: [{ type: 'text', text: 'A cat surfing a wave' }],
    });
  });

  it("accepts the openai SDK's multipart form with seconds as a string, and an alias", async () => {
    const job = await client.videos.create({
      model: 'h3',
      prompt: 'A lighthouse at dusk',
      seconds: '8',
    } as unknown as OpenAI.VideoCreateParams);
    expect(job).toMatchObject({ object: 'video', model: 'h3', status: 'queued', progress: 0, seconds: '8' });
    const finished = await client.videos.retrieve(job.id);
    expect(finished.id).toBe(job.id);
  });

  it("maps the openai SDK's size (WxH) to the group's resolution and ratio, and refuses one it has not", async () => {
    const job = await client.videos.create({
      model: 'beta-dance',
      prompt: 'A heron taking off',
      seconds: '4',
      size: '1080x1920',
    } as unknown as OpenAI.VideoCreateParams);
    expect(job.status).toBe('queued');
    const sent = [...ark.requests].reverse().find((r) => r.method === 'POST')?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ resolution: '1080p', ratio: '9:16' });
    const refused = await client.videos
      .create({ model: 'beta-dance', prompt: 'x', seconds: '4', size: '1000x1000' } as unknown as OpenAI.VideoCreateParams)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).param).toBe('size');
    expect((refused as Error).message).toContain('1280x720');
    const conflicting = await create({ model: 'beta-dance', prompt: 'x', seconds: 4, size: '1280x720', resolution: '480p' });
    expect(conflicting.status).toBe(422);
    expect(((await conflicting.json()) as { error: { param: string } }).error.param).toBe('size');
  });

  it('sends an image as the first frame and lets the ratio follow it', async () => {
    const response = await create({
      model: 'beta-dance',
      prompt: 'Animate this',
      seconds: 4,
      ratio: '9:16',
      input_reference: 'https://example.com/frame.png',
    });
    expect(response.status).toBe(200);
    const sent = [...ark.requests].reverse().find((r) => r.method === 'POST')?.body as Record<string, unknown>;
    expect(sent.ratio).toBe('adaptive');
    expect(sent.content).toEqual([
      { type: 'text', text: 'Animate this' },
      { type: 'image_url', image_url: { url: 'https://example.com/frame.png' }, role: 'first_frame' },
    ]);
  });

  it("takes input_reference in the openai SDK's object form too, as JSON and as form fields", async () => {
    const asJson = await create({
      model: 'beta-dance',
      prompt: 'Object form',
      seconds: 4,
      input_reference: { image_url: 'https://example.com/a.png' },
    });
    expect(asJson.status).toBe(200);
    const first = [...ark.requests].reverse().find((r) => r.method === 'POST')?.body as { content: unknown[] };
    expect(first.content[1]).toMatchObject({ type: 'image_url', image_url: { url: 'https://example.com/a.png' }, role: 'first_frame' });
    const form = new FormData();
    const fields: [string, string][] = [
      ['model', 'beta-dance'],
      ['prompt', 'Form fields'],
      ['seconds', '4'],
      ['input_reference[image_url]', 'https://example.com/b.png'],
    ];
    for (const [name, value] of fields) form.append(name, value);
    const asForm = await gateway.call('/v1/videos', key, { method: 'POST', body: form });
    expect(asForm.status).toBe(200);
    const second = [...ark.requests].reverse().find((r) => r.method === 'POST')?.body as { content: unknown[] };
    expect(second.content[1]).toMatchObject({ image_url: { url: 'https://example.com/b.png' } });
    const unusable = await create({ model: 'beta-dance', prompt: 'x', seconds: 4, input_reference: { file_id: 'file-1' } });
    expect(unusable.status).toBe(422);
    expect(((await unusable.json()) as { error: { param: string } }).error.param).toBe('input_reference');
  });

  it('refuses every invalid request with 422 and creates nothing upstream', async () => {
    const { key: other } = await gateway.createKey({ models: ['alpha-h3'] });
    const before = ark.createdTasks + minimax.createdTasks;
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ model: 'beta-dance', prompt: 'x', seconds: 3 }, 'seconds'],
      [{ model: 'beta-dance', prompt: 'x', seconds: 31 }, 'seconds'],
      [{ model: 'beta-dance', prompt: 'x', seconds: '5.5' }, 'seconds'],
      [{ model: 'beta-dance', prompt: 'x', seconds: 'five' }, 'seconds'],
      [{ model: 'beta-dance', prompt: 'x' }, 'seconds'],
      [{ model: 'alpha-h3-max', prompt: 'x', seconds: 4 }, 'seconds'],
      [{ model: 'beta-dance', prompt: 'x', seconds: 5, resolution: '720P' }, 'resolution'],
      [{ model: 'alpha-h3', prompt: 'x', seconds: 5, resolution: '768p' }, 'resolution'],
      [{ model: 'alpha-h3', prompt: 'x', seconds: 5, resolution: '480P' }, 'resolution'],
      [{ model: 'beta-dance', prompt: 'x', seconds: 5, ratio: '2:1' }, 'ratio'],
      [{ model: 'beta-dance', prompt: 'x', seconds: 5, input_reference: 'not a url' }, 'input_reference'],
      [{ model: 'beta-dance', seconds: 5 }, 'prompt'],
      [{ model: 'alpha-h3', prompt: 'x'.repeat(7001), seconds: 5 }, 'prompt'],
      [{ model: 'no-such-model', prompt: 'x', seconds: 5 }, 'model'],
      [{ prompt: 'x', seconds: 5 }, 'model'],
      [{ model: 'beta-dance', prompt: 'x', seconds: 5 }, 'model', other],
    ];
    for (const [body, param, secret] of cases) {
      const response = await create(body, secret);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(((await response.json()) as { error: { param: string } }).error.param, JSON.stringify(body).slice(0, 80)).toBe(param);
    }
    expect(ark.createdTasks + minimax.createdTasks).toBe(before);
  });
});

describe('lifecycle and billing', () => {
  // Each test has a key of its own, so jobs of other tests finishing meanwhile do not count.
  it('polls a token-billed job to completed with its size, seconds and real tokens, billed exactly once', async () => {
    const { key: own } = await gateway.createKey({ models: ['beta-dance'] });
    const job = (await (
      await create({ model: 'beta-dance', prompt: 'A fox in snow', seconds: 5, resolution: '720p', ratio: '16:9' }, own)
    ).json()) as Job;
    let done: Job = job;
    await eventually(async () => (done = await get(job.id, own)).status === 'completed', 10_000);
    expect(done).toMatchObject({
      status: 'completed',
      progress: 100,
      seconds: '5',
      size: '1280x720',
      usage: { total_tokens: 108_900 },
      completed_at: expect.any(Number),
    });
    noSecrets(JSON.stringify(done));
    // 108,900 tokens at 10.70 USD per million.
    await eventually(async () => (await spentNanos(own)) === 108_900 * 10_700);
    await get(job.id, own);
    await new Promise((r) => setTimeout(r, 300));
    expect(await spentNanos(own)).toBe(108_900 * 10_700);
  });

  it("bills per-second groups by seconds × the resolution's price, even when nobody polls", async () => {
    const { key: own } = await gateway.createKey({ models: ['alpha-h3'] });
    const job = (await (
      await create({ model: 'alpha-h3', prompt: 'Waves', seconds: 8, resolution: '2K', ratio: '9:16' }, own)
    ).json()) as Job;
    // The background poller finishes and bills it without any GET.
    await eventually(async () => (await spentNanos(own)) === 8 * 130_000_000, 10_000);
    expect(await get(job.id, own)).toMatchObject({ status: 'completed', size: '1440x2560', seconds: '8' });
  });

  it('ends a moderation rejection as failed with a message, free of charge', async () => {
    const { key: own } = await gateway.createKey({ models: ['beta-dance'] });
    ark.fail({ moderation: true });
    const job = (await (await create({ model: 'beta-dance', prompt: 'Something the checker refuses', seconds: 4 }, own)).json()) as Job;
    let failed: Job = job;
    await eventually(async () => ['failed', 'completed'].includes((failed = await get(job.id, own)).status), 10_000);
    expect(failed.status).toBe('failed');
    expect((failed.error as { message: string }).message).toMatch(/moderation/i);
    expect((failed.error as { code: string }).code).toBe('moderation_blocked');
    await new Promise((r) => setTimeout(r, 300));
    expect(await spentNanos(own)).toBe(0);
  });
});

describe('MiniMax failures', () => {
  it('ends moderation rejections and cancellations without charge', async () => {
    const { key: own } = await gateway.createKey({ models: ['alpha-h3-max'] });
    minimax.fail({ moderation: true }, { cancelled: true });
    const jobs: Job[] = [];
    for (const prompt of ['refused', 'cancelled']) {
      jobs.push((await (await create({ model: 'alpha-h3-max', prompt, seconds: 5, resolution: '480P' }, own)).json()) as Job);
    }
    const ends: Job[] = [];
    for (const job of jobs) {
      let end: Job = job;
      await eventually(async () => ['failed', 'cancelled', 'completed'].includes((end = await get(job.id, own)).status), 10_000);
      ends.push(end);
    }
    expect(ends.map((j) => j.status)).toEqual(['failed', 'cancelled']);
    expect((ends[0]?.error as { message: string } | undefined)?.message).toMatch(/moderation/i);
    expect((ends[0]?.error as { code: string } | undefined)?.code).toBe('moderation_blocked');
    await new Promise((r) => setTimeout(r, 300));
    expect(await spentNanos(own)).toBe(0);
  });
});

describe('ownership and download', () => {
  let jobId: string;
  let clip: Buffer;

  beforeAll(async () => {
    const job = (await (await create({ model: 'beta-dance', prompt: 'A clip to download', seconds: 4, resolution: '480p' })).json()) as Job;
    jobId = job.id;
    await waitFor(jobId, ['completed']);
    clip = ark.clipFor(lastTaskId(ark));
  });

  it("shows another key's job exactly like an unknown id", async () => {
    const { key: stranger } = await gateway.createKey({ models: ['*'] });
    const theirs = await gateway.call(`/v1/videos/${jobId}`, stranger);
    const unknown = await gateway.call('/v1/videos/video_00000000000000000000000000000000', stranger);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual(await unknown.json());
    expect((await gateway.call(`/v1/videos/${jobId}/content`, stranger)).status).toBe(404);
  });

  it('streams the clip byte for byte, with Range slices and 416, never showing the signed address', async () => {
    const whole = await gateway.call(`/v1/videos/${jobId}/content`, key);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('content-length')).toBe(String(clip.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(clip)).toBe(true);

    const slice = await gateway.call(`/v1/videos/${jobId}/content`, key, { headers: { range: 'bytes=100-1123' } });
    expect(slice.status).toBe(206);
    expect(slice.headers.get('content-range')).toBe(`bytes 100-1123/${clip.length}`);
    expect(Buffer.from(await slice.arrayBuffer()).equals(clip.subarray(100, 1124))).toBe(true);

    const tail = await gateway.call(`/v1/videos/${jobId}/content`, key, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(clip.subarray(clip.length - 10))).toBe(true);

    const beyond = await gateway.call(`/v1/videos/${jobId}/content`, key, { headers: { range: `bytes=${clip.length}-` } });
    expect(beyond.status).toBe(416);
    for (const response of [whole, slice, tail, beyond]) noSecrets(JSON.stringify([...response.headers]));
  });

  it('fetches a fresh signed address when the stored one went stale', async () => {
    ark.expireUrls();
    const again = await gateway.call(`/v1/videos/${jobId}/content`, key);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(clip)).toBe(true);
  });

  it("works with the openai SDK's downloadContent", async () => {
    const response = await client.videos.downloadContent(jobId);
    expect(Buffer.from(await response.arrayBuffer()).equals(clip)).toBe(true);
  });

  it('serves the video variant and names variant for the ones providers do not give', async () => {
    expect((await gateway.call(`/v1/videos/${jobId}/content?variant=video`, key)).status).toBe(200);
    for (const variant of ['thumbnail', 'spritesheet']) {
      const response = await gateway.call(`/v1/videos/${jobId}/content?variant=${variant}`, key);
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: { param: string } }).error.param).toBe('variant');
    }
  });

  it('answers 409 video_not_ready before completion', async () => {
    const job = (await (await create({ model: 'beta-dance', prompt: 'Not yet', seconds: 4 })).json()) as Job;
    const response = await gateway.call(`/v1/videos/${job.id}/content`, key);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('video_not_ready');
  });

  it('never writes a signed address or provider task id to the logs', () => {
    const logs = gateway.logs.join('');
    expect(logs).not.toContain('X-Signature');
    expect(logs).not.toContain('/clips/');
  });
});

describe('listing and deleting jobs (the openai SDK)', () => {
  it("lists the key's jobs newest first, a page at a time, and only its own", async () => {
    const { key: own } = await gateway.createKey({ models: ['beta-dance'] });
    const sdk = new OpenAI({ apiKey: own, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) {
      ids.push(((await (await create({ model: 'beta-dance', prompt, seconds: 4 }, own)).json()) as Job).id);
    }
    const listed: string[] = [];
    for await (const video of sdk.videos.list({ limit: 2 })) listed.push(video.id);
    expect(listed).toEqual([...ids].reverse());
    const oldest = (await (await gateway.call('/v1/videos?order=asc&limit=1', own)).json()) as { data: Job[]; has_more: boolean };
    expect(oldest.data.map((j) => j.id)).toEqual([ids[0]]);
    expect(oldest.has_more).toBe(true);
    // Another key's list holds none of them.
    const others = (await (await gateway.call('/v1/videos?limit=100', key)).json()) as { data: Job[] };
    expect(others.data.some((j) => ids.includes(j.id))).toBe(false);
    const bad = await gateway.call('/v1/videos?limit=0', own);
    expect(bad.status).toBe(422);
  });

  it('deletes a queued job by cancelling it upstream, unbilled; a finished one at once; 501 where the provider cannot cancel', async () => {
    const { key: own } = await gateway.createKey({ models: ['beta-dance', 'alpha-h3-max'], budget_usd: 50 });
    const sdk = new OpenAI({ apiKey: own, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const reserved = async () =>
      ((await (await gateway.call('/v1/usage', own)).json()) as { budget: { reserved_usd: number } }).budget.reserved_usd;
    const queued = (await (await create({ model: 'beta-dance', prompt: 'cancel me', seconds: 4 }, own)).json()) as Job;
    expect(await reserved()).toBeGreaterThan(0);
    expect(await sdk.videos.delete(queued.id)).toEqual({ id: queued.id, object: 'video.deleted', deleted: true });
    expect(ark.requests.some((r) => r.method === 'DELETE')).toBe(true);
    expect((await gateway.call(`/v1/videos/${queued.id}`, own)).status).toBe(404);
    expect(await reserved()).toBe(0);

    const running = (await (
      await create({ model: 'alpha-h3-max', prompt: 'keep going', seconds: 5, resolution: '480P' }, own)
    ).json()) as Job;
    const refused = await sdk.videos.delete(running.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(501);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('not_implemented');
    const finished = await waitForOwn(running.id, own, ['completed']);
    expect(await sdk.videos.delete(finished.id)).toMatchObject({ deleted: true });
    expect((await gateway.call(`/v1/videos/${finished.id}`, own)).status).toBe(404);
    // Billed once, before it went: deleting never unbills a finished job.
    expect(await spentNanos(own)).toBeGreaterThan(0);
    expect((await gateway.call('/v1/videos/video_nope', own, { method: 'DELETE' })).status).toBe(404);
  });
});

async function waitForOwn(id: string, secret: string, statuses: string[]): Promise<Job> {
  let job: Job = { id, status: '' };
  await eventually(async () => statuses.includes((job = await get(id, secret)).status), 15_000);
  return job;
}

describe('retention', () => {
  it('forgets a job once its record has expired', async () => {
    const short = await startTestGateway({ config: parseConfig(config(...urls, 1), 'video-retention'), env });
    try {
      const { key: k } = await short.createKey({ models: ['*'] });
      const response = await short.call('/v1/videos', k, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'beta-dance', prompt: 'Brief', seconds: 4 }),
      });
      const job = (await response.json()) as Job;
      expect((await short.call(`/v1/videos/${job.id}`, k)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1300));
      expect((await short.call(`/v1/videos/${job.id}`, k)).status).toBe(404);
      expect((await short.call(`/v1/videos/${job.id}/content`, k)).status).toBe(404);
    } finally {
      await stopTestGateway(short);
    }
  });
});
