import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';
import { mp4Facts } from '../helpers/mp4.js';

// The first video without any vendor account: the shipped example configuration's demo-video
// group renders inside the video service, through the same poller, budgets, billing and
// download path as a vendor's, and the clip it hands back is a real, playable MP4.

const CLIP_16X9 = readFileSync(new URL('../../services/video/assets/demo/720p-16x9.mp4', import.meta.url));
const CLIP_9X16 = readFileSync(new URL('../../services/video/assets/demo/720p-9x16.mp4', import.meta.url));
/** 1280 × 720 × 24 fps × 4 s / 1024 at 0.05 USD per million tokens. */
const TOKENS = 86_400;
const PRICE_USD = (TOKENS * 0.05) / 1e6;

let gateway: TestGateway;
let client: OpenAI;
let keyId: string;
let secret: string;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { DEEPSEEK_API_KEY: '' } });
  ({ id: keyId, key: secret } = await gateway.createKey({ models: ['*'], budget_usd: 1 }));
  client = new OpenAI({ apiKey: secret, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => stopTestGateway(gateway));

const spent = async () => ((await (await gateway.admin('GET', `/admin/v1/keys/${keyId}`)).json()) as { spent_usd: number }).spent_usd;

/** Polls as a client would, once a second, keeping every status seen. */
async function finish(id: string): Promise<{ job: OpenAI.Videos.Video; seen: { status: string; progress: number }[] }> {
  const seen: { status: string; progress: number }[] = [];
  for (let i = 0; i < 30; i += 1) {
    const job = await client.videos.retrieve(id);
    seen.push({ status: job.status, progress: job.progress });
    if (job.status === 'completed' || job.status === 'failed') return { job, seen };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`job ${id} did not finish: ${JSON.stringify(seen)}`);
}

const model = 'demo-video' as OpenAI.Videos.VideoModel;
/** The jobs, all started at once so the file waits for one render, not five. */
let landscape: OpenAI.Videos.Video;
let portrait: OpenAI.Videos.Video;
let moderated: OpenAI.Videos.Video;
let failed: OpenAI.Videos.Video;
let deleted: OpenAI.Videos.Video;
let deletedAnswer: unknown;

describe('the demo video provider', () => {
  beforeAll(async () => {
    [landscape, portrait, moderated, failed, deleted] = await Promise.all([
      client.videos.create({ model, prompt: 'A paper boat', seconds: '4', size: '1280x720' }),
      // The openai SDK's default size.
      client.videos.create({ model, prompt: 'A tall tower', seconds: '4', size: '720x1280' }),
      client.videos.create({ model, prompt: 'Anything [demo:moderation]', seconds: '4' }),
      client.videos.create({ model, prompt: 'Anything [demo:fail]', seconds: '4' }),
      client.videos.create({ model, prompt: 'Never mind', seconds: '4' }),
    ]);
    // Deleted while queued: cancelled upstream, its hold given back, never billed.
    deletedAnswer = await client.videos.delete(deleted.id);
  });

  it('is served with no credential and listed with integer limits', async () => {
    const models = (await client.models.list()).data as unknown as { id: string; mode: string; max_output_tokens: number }[];
    expect(models.map((m) => [m.id, m.mode])).toEqual([
      ['demo-chat', 'chat'],
      ['demo-video', 'video'],
    ]);
    expect(models[1]?.max_output_tokens).toBeGreaterThanOrEqual(TOKENS);
  });

  it('moves a job queued → in_progress → completed in seconds and downloads the real clip, with Range', async () => {
    expect(landscape).toMatchObject({ object: 'video', model: 'demo-video', status: 'queued', seconds: '4' });
    const { job, seen } = await finish(landscape.id);
    expect(job).toMatchObject({ status: 'completed', size: '1280x720', seconds: '4', progress: 100 });
    expect((job as unknown as { usage?: { total_tokens: number } }).usage).toEqual({ total_tokens: TOKENS });
    // It was seen rendering with a progress between the two ends.
    expect(seen.some((s) => s.status === 'in_progress' && s.progress > 0 && s.progress < 100)).toBe(true);

    const download = await client.videos.downloadContent(landscape.id);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.equals(CLIP_16X9)).toBe(true);
    expect(mp4Facts(bytes)).toEqual({ brand: 'isom', width: 1280, height: 720, seconds: 4, codec: 'avc1' });

    // Range, as players and download managers ask.
    const ranged = (range: string) => gateway.call(`/v1/videos/${landscape.id}/content`, secret, { headers: { range } });
    const head = await ranged('bytes=0-99');
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-99/${CLIP_16X9.length}`);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await head.arrayBuffer()).equals(CLIP_16X9.subarray(0, 100))).toBe(true);
    const tail = await ranged('bytes=-16');
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(CLIP_16X9.subarray(-16))).toBe(true);
    const rest = await ranged(`bytes=${CLIP_16X9.length - 10}-`);
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-length')).toBe('10');
    await rest.arrayBuffer();
    const past = await ranged(`bytes=${CLIP_16X9.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${CLIP_16X9.length}`);
  });

  it('renders portrait from the size the openai SDK sends by default', async () => {
    const { job } = await finish(portrait.id);
    expect(job).toMatchObject({ status: 'completed', size: '720x1280' });
    const bytes = Buffer.from(await (await client.videos.downloadContent(portrait.id)).arrayBuffer());
    expect(bytes.equals(CLIP_9X16)).toBe(true);
    expect(mp4Facts(bytes)).toMatchObject({ width: 720, height: 1280, seconds: 4 });
  });

  it('fails on request with a coded error and no clip', async () => {
    expect((await finish(moderated.id)).job.error).toMatchObject({ code: 'moderation_blocked' });
    expect((await finish(failed.id)).job.error).toMatchObject({ code: 'generation_failed' });
    expect(await client.videos.downloadContent(failed.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.APIError);
  });

  it('refuses what it cannot render with a 422 naming the field, before any job exists', async () => {
    for (const [body, param] of [
      [{ seconds: '8' }, 'seconds'],
      [{ seconds: '4', size: '1792x1024' }, 'size'],
    ] as const) {
      const error = await client.videos.create({ model, prompt: 'x', ...body }).catch((e: unknown) => e);
      expect(error, param).toBeInstanceOf(OpenAI.UnprocessableEntityError);
      expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe(param);
    }
  });

  it('lists the key’s jobs and deletes one still queued', async () => {
    expect(deletedAnswer).toMatchObject({ id: deleted.id, deleted: true });
    expect(await client.videos.retrieve(deleted.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    const listed = await client.videos.list({ limit: 100 });
    // Made at once, so in no set order among themselves; the deleted one is gone.
    expect(listed.data.map((j) => j.id).sort()).toEqual([failed.id, moderated.id, portrait.id, landscape.id].sort());
  });

  it('bills the two finished clips exactly once each, and nothing else', async () => {
    // Everything has ended by now (the deleted job would have completed too).
    await eventually(async () => Math.abs((await spent()) - 2 * PRICE_USD) < 1e-9);
    await client.videos.retrieve(landscape.id);
    await client.videos.downloadContent(landscape.id).then((r) => r.arrayBuffer());
    expect(Math.abs((await spent()) - 2 * PRICE_USD)).toBeLessThan(1e-9);
    const logs = (await (await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${keyId}`)).json()) as { data: { id: string }[] };
    expect(logs.data.map((r) => r.id).sort()).toEqual([landscape.id, portrait.id].sort());
  });
});
