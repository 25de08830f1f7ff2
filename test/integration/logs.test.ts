import { parseConfig } from '@gateway/config';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// What an operator reads at info: one access line per request and one line per video job
// state change; an upstream failure the router handled is one warn per attempt, without a
// stack; nothing at error unless the gateway itself failed.

const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'] });
const videoSim = new VideoSimulator({
  protocol: 'minimax',
  credential: 'mm-credential',
  models: ['MiniMax-H3'],
  queuedPolls: 1,
  runningPolls: 1,
});

function config(chatUrl: string, videoUrl: string): string {
  return `
groups:
  - id: log-chat
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 2 }
    deployments:
      - { provider: openai, model: gpt-sim, api_base: "${chatUrl}/v1", api_key_env: OA_KEY }
      - { provider: openai, model: gpt-sim, api_base: "${chatUrl}/v1", api_key_env: OA_KEY }
  - id: log-video
    mode: video
    video: { resolutions: [768P], default_resolution: 768P, seconds: [4, 15], ratios: ["16:9"], image_input: none }
    price: { per_second_by_resolution: { 768P: 0.08 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "${videoUrl}", api_key_env: MM_KEY }]
video: { poll_interval_ms: 100 }
`;
}

interface Line {
  level: string;
  msg: string;
  [field: string]: unknown;
}

let gateway: TestGateway;
let key: string;
let keyId: string;

beforeAll(async () => {
  const [chatUrl, videoUrl] = [await chatSim.listen(), await videoSim.listen()];
  gateway = await startTestGateway({
    config: parseConfig(config(chatUrl, videoUrl), 'logs-test'),
    env: { OA_KEY: 'oa-credential', MM_KEY: 'mm-credential' },
  });
  ({ key, id: keyId } = await gateway.createKey({ models: ['*'], budget_usd: 100 }));
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await chatSim.close();
  await videoSim.close();
});

/** The lines written from now on, while `act` runs (and until `settled` holds). */
async function capture(act: () => Promise<void>, settled: (lines: Line[]) => boolean = () => true): Promise<Line[]> {
  const from = gateway.logs.length;
  await act();
  const read = () =>
    gateway.logs.slice(from).flatMap((chunk) =>
      chunk
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line),
    );
  await eventually(async () => settled(read()), 5000);
  return read();
}

const atInfoOrAbove = (lines: Line[]) => lines.filter((l) => l.level !== 'debug' && l.level !== 'trace');
const chat = (body: Record<string, unknown> = {}) =>
  gateway.call('/v1/chat/completions', key, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'log-chat', messages: [{ role: 'user', content: 'Hello there' }], ...body }),
  });

describe('the logs an operator reads', () => {
  it('a plain call: one access line with who, group, status, time, overhead, tokens and cost', async () => {
    const lines = await capture(async () => {
      expect((await chat()).status).toBe(200);
    });
    const shown = atInfoOrAbove(lines);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'POST',
      route: '/v1/chat/completions',
      status: 200,
      keyId,
      group: 'log-chat',
      requestId: expect.any(String),
      ms: expect.any(Number),
      overheadMs: expect.any(Number),
      promptTokens: expect.any(Number),
      completionTokens: expect.any(Number),
      reasoningTokens: 0,
    });
    const line = shown[0] as Line & { promptTokens: number; completionTokens: number; costUsd: number };
    expect(line.costUsd).toBeCloseTo((line.promptTokens * 1 + line.completionTokens * 2) / 1e6, 12);
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it('a streamed call: the same one line, with the metered tokens even when the caller did not ask for usage', async () => {
    const lines = await capture(async () => {
      const response = await chat({ stream: true });
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain('"usage"');
    });
    const shown = atInfoOrAbove(lines);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ msg: 'request', status: 200, group: 'log-chat', overheadMs: expect.any(Number) });
    expect(shown[0]?.completionTokens).toBeGreaterThan(0);
  });

  it('an upstream 500 the router retried: one warn for the failed attempt, no stack, then the access line', async () => {
    chatSim.fail({ status: 500 });
    const lines = await capture(async () => {
      expect((await chat()).status).toBe(200);
    });
    const shown = atInfoOrAbove(lines);
    expect(shown.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'upstream attempt failed'],
      ['info', 'request'],
    ]);
    expect(shown[0]).toMatchObject({
      group: 'log-chat',
      deployment: 'openai/gpt-sim',
      attempt: 1,
      upstreamStatus: 500,
      code: 'upstream_status',
      reason: 'The server had an error while processing your request.',
      requestId: shown[1]?.requestId,
    });
    expect(shown[0]).not.toHaveProperty('err');
  });

  it('an upstream failure the router could not get round: warns per attempt and the access line with the code, nothing at error', async () => {
    chatSim.fail({ status: 500 }, { status: 500 });
    const lines = await capture(async () => {
      expect((await chat()).status).toBe(502);
    });
    const shown = atInfoOrAbove(lines);
    expect(shown.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'upstream attempt failed'],
      ['warn', 'upstream attempt failed'],
      ['info', 'request'],
    ]);
    expect(shown.map((l) => l.attempt)).toEqual([1, 2, undefined]);
    expect(shown[2]).toMatchObject({ status: 502, code: 'upstream_error', group: 'log-chat' });
    // No message is said twice, and no stack anywhere.
    expect(JSON.stringify(shown)).not.toMatch(/stack|UNAVAILABLE/);
  });

  it('a video job: its requests, and one line per state it enters, the last with its cost', async () => {
    let jobId = '';
    const lines = await capture(
      async () => {
        const created = await gateway.call('/v1/videos', key, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'log-video', prompt: 'A lighthouse', seconds: 4 }),
        });
        expect(created.status).toBe(200);
        jobId = ((await created.json()) as { id: string }).id;
      },
      (seen) => seen.some((l) => l.msg === 'video job completed'),
    );
    const shown = atInfoOrAbove(lines);
    expect(shown.map((l) => l.msg)).toEqual(['video job created', 'request', 'video job in_progress', 'video job completed']);
    expect(shown[0]).toMatchObject({ jobId, keyId, group: 'log-video', status: 'queued' });
    expect(shown[1]).toMatchObject({ route: '/v1/videos', status: 200, group: 'log-video', keyId });
    expect(shown[2]).toMatchObject({ jobId, from: 'queued', status: 'in_progress' });
    expect(shown[3]).toMatchObject({ jobId, from: 'in_progress', status: 'completed', size: expect.any(String), costUsd: 0.32 });
    const polled = await capture(async () => {
      expect((await gateway.call(`/v1/videos/${jobId}`, key)).status).toBe(200);
    });
    expect(atInfoOrAbove(polled)).toEqual([
      expect.objectContaining({ msg: 'request', route: '/v1/videos/:id', resource: jobId, status: 200 }),
    ]);
  });

  it('probes stay out of the info log', async () => {
    const lines = await capture(async () => {
      expect((await gateway.call('/health/liveness')).status).toBe(200);
    });
    expect(atInfoOrAbove(lines)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'request')).toHaveLength(1);
  });
});
