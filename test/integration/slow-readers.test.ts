import { connect, type Socket } from 'node:net';
import { parseConfig } from '@gateway/config';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Slow readers: callers that start a clip download or an SSE stream and stop reading. They must
// not starve anyone else (no small connection cap shared with other callers), each key may have
// only so many downloads running at once (429 past it), and a caller that reads nothing for the
// stall timeout is cut, which frees what it held.

const CLIP_BYTES = 24 * 1024 * 1024;
const PAUSED = 70;
const ark = new VideoSimulator({
  protocol: 'ark',
  credential: 'ark-credential',
  models: ['seedance-sim'],
  queuedPolls: 1,
  runningPolls: 1,
  clipBytes: CLIP_BYTES,
  urlMaxDownloads: 10_000,
  record: false,
});
// Long answers (about 4 MB of events each), so a paused reader really fills every buffer on the way.
const chat = new ChatSimulator({
  flavor: 'openai',
  credential: 'c',
  models: ['m'],
  reply: Array.from({ length: 4000 }, (_, i) => `${i}`.padEnd(1000, 'x')).join(' '),
  record: false,
});
const STALL_SECONDS = 4;
const PER_KEY = 8;

let gateway: TestGateway;
const sockets: Socket[] = [];

beforeAll(async () => {
  const [arkUrl, chatUrl] = [await ark.listen(), await chat.listen()];
  const config = parseConfig(
    `
groups:
  - id: v
    mode: video
    video: { resolutions: [720p], default_resolution: 720p, seconds: [4, 4], ratios: ["16:9"], image_input: none }
    price: { per_mtok_by_resolution: { 720p: 1 } }
    deployments: [{ provider: ark, model: seedance-sim, api_base: "${arkUrl}/api/v3", api_key_env: ARK_KEY }]
  - id: c
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100000
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: CHAT_KEY }]
video: { poll_interval_ms: 100 }
server: { stall_timeout_seconds: ${STALL_SECONDS}, downloads_per_key: ${PER_KEY} }
`,
    'slow-readers-test',
  );
  gateway = await startTestGateway({ config, env: { ARK_KEY: 'ark-credential', CHAT_KEY: 'c' } });
}, 30_000);
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await stopTestGateway(gateway);
  await ark.close();
  await chat.close();
});

/** A key and a completed clip of its own. */
async function keyWithClip(): Promise<{ key: string; id: string }> {
  const { key } = await gateway.createKey({ models: ['v'], budget_usd: 5 });
  const created = await gateway.call('/v1/videos', key, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'v', prompt: 'a slow reader', seconds: 4 }),
  });
  if (created.status !== 200) throw new Error(await created.text());
  const { id } = (await created.json()) as { id: string };
  await eventually(
    async () => ((await (await gateway.call(`/v1/videos/${id}`, key)).json()) as { status: string }).status === 'completed',
    10_000,
  );
  return { key, id };
}

/** Sends a request on a raw socket and never reads the answer. */
function pausedReader(path: string, key: string, body?: string): Promise<Socket> {
  const { port } = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.pause();
      const head = [
        `${body ? 'POST' : 'GET'} ${path} HTTP/1.1`,
        'host: 127.0.0.1',
        `authorization: Bearer ${key}`,
        ...(body ? ['content-type: application/json', `content-length: ${Buffer.byteLength(body)}`] : []),
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n${body ?? ''}`);
      sockets.push(socket);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** A whole download: milliseconds and bytes. */
async function download(id: string, key: string): Promise<{ ms: number; bytes: number; status: number }> {
  const started = performance.now();
  const response = await gateway.call(`/v1/videos/${id}/content`, key);
  const payload = await response.arrayBuffer();
  const bytes = response.status === 200 ? payload.byteLength : 0;
  return { ms: performance.now() - started, bytes, status: response.status };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const mib = (bytes: number, ms: number) => (bytes / 1024 / 1024 / (ms / 1000)).toFixed(0);

describe('paused clip downloads', () => {
  it(`do not slow another caller's download, even ${PAUSED} of them`, async () => {
    const owners = await Promise.all(Array.from({ length: Math.ceil(PAUSED / (PER_KEY - 1)) }, keyWithClip));
    const other = await keyWithClip();
    const alone = await download(other.id, other.key);
    expect(alone).toMatchObject({ status: 200, bytes: CLIP_BYTES });

    // 70 downloads over 10 keys (7 each, under the per-key limit), none reading.
    for (let i = 0; i < PAUSED; i += 1) {
      const owner = owners[i % owners.length] as { key: string; id: string };
      await pausedReader(`/v1/videos/${owner.id}/content`, owner.key);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const during = await download(other.id, other.key);
    expect(during).toMatchObject({ status: 200, bytes: CLIP_BYTES });
    process.stdout.write(
      `24 MiB clip: alone ${alone.ms.toFixed(0)} ms (${mib(CLIP_BYTES, alone.ms)} MiB/s), with ${PAUSED} paused readers ${during.ms.toFixed(0)} ms (${mib(CLIP_BYTES, during.ms)} MiB/s)\n`,
    );
    // Normal speed: the same order as alone (a loaded two-core machine, so not to the millisecond).
    expect(during.ms).toBeLessThan(Math.max(3 * alone.ms, alone.ms + 1500));
    for (const socket of sockets.splice(0)) socket.destroy();
  }, 90_000);

  it(`allow ${PER_KEY} downloads per key at once, then answer 429 with Retry-After`, async () => {
    const owner = await keyWithClip();
    const held: Socket[] = [];
    for (let i = 0; i < PER_KEY; i += 1) held.push(await pausedReader(`/v1/videos/${owner.id}/content`, owner.key));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await gateway.call(`/v1/videos/${owner.id}/content`, owner.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_downloads');
    // Another key is not affected.
    const other = await keyWithClip();
    expect((await download(other.id, other.key)).status).toBe(200);
    // One ends: a slot is free again.
    held.pop()?.destroy();
    await eventually(async () => (await download(owner.id, owner.key)).status === 200, 5000);
    for (const socket of held) socket.destroy();
  }, 60_000);

  it('cut a caller that reads nothing for the stall timeout, which frees its slot', async () => {
    const owner = await keyWithClip();
    const held: Socket[] = [];
    for (let i = 0; i < PER_KEY; i += 1) held.push(await pausedReader(`/v1/videos/${owner.id}/content`, owner.key));
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // (A paused socket does not see its own end; the slots coming free say the edge cut them.)
    let status = 429;
    while (status === 429 && performance.now() - started < STALL_SECONDS * 1000 + 5000) {
      status = (await download(owner.id, owner.key)).status;
      if (status === 429) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const after = performance.now() - started;
    expect(status).toBe(200);
    // Cut once the stall timeout passed (checked a few times per timeout), not before.
    expect(after).toBeGreaterThan(STALL_SECONDS * 1000 - 500);
    expect(after).toBeLessThan(STALL_SECONDS * 1000 + 3000);
    expect(gateway.logs.some((line) => line.includes('clip download cut'))).toBe(true);
    for (const socket of held) socket.destroy();
  }, 60_000);
});

describe('paused SSE readers', () => {
  it('do not slow other chat calls, and are cut after the stall timeout', async () => {
    const { key } = await gateway.createKey({ models: ['c'], budget_usd: 50 });
    const call = async () => {
      const started = performance.now();
      const response = await gateway.call('/v1/chat/completions', key, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'c', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      });
      const text = await response.text();
      expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
      return performance.now() - started;
    };
    const alone = median([await call(), await call(), await call()]);
    const body = JSON.stringify({ model: 'c', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const held: Socket[] = [];
    for (let i = 0; i < 20; i += 1) held.push(await pausedReader('/v1/chat/completions', key, body));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The median of three: the first call shares the two cores with the paused streams' answers
    // being made and buffered until every buffer on their way is full.
    const during = median([await call(), await call(), await call()]);
    process.stdout.write(`4 MB stream: alone ${alone.toFixed(0)} ms, with 20 paused SSE readers ${during.toFixed(0)} ms (medians of 3)\n`);
    expect(during).toBeLessThan(Math.max(3 * alone, alone + 1500));
    await eventually(
      async () => gateway.logs.filter((line) => line.includes('stream cut')).length === held.length,
      (STALL_SECONDS + 5) * 1000,
    );
    for (const socket of held) socket.destroy();
  }, 60_000);
});
