import { parseConfig } from '@gateway/config';
import { ChatSimulator, countPromptTokens, type ChatFault } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The upstream half of docs/faults.md, row by row: each fault a chat upstream can commit, what
// the caller sees (status, code, headers, stream), what the key is billed to the nano-dollar,
// and what the router does about it. One gateway routes groups of ONE deployment with no retry,
// so every fault reaches the caller; a second routes pairs with one retry, to show which faults
// a retry hides. Every group has its own deployment, so one row's router state (a pause, a
// failure count) never touches another's.

const REPLY = 'Hello from the simulator, one word at a time.';
const MESSAGES = [{ role: 'user', content: 'Hi' }];
/** Prices of every group, USD per million tokens. */
const INPUT_PER_MTOK = 3;
const OUTPUT_PER_MTOK = 4;
/** What the simulator reports for one call: a token per four characters of prompt, a token per word of its reply. */
const PROMPT_TOKENS = countPromptTokens(MESSAGES);
const COMPLETION_TOKENS = REPLY.split(' ').length;
/** One served call, in nano-dollars: tokens × USD per Mtok × 1000. */
const CALL_NANOS = PROMPT_TOKENS * INPUT_PER_MTOK * 1000 + COMPLETION_TOKENS * OUTPUT_PER_MTOK * 1000;
/** A deployment's timeout in the timeout rows, and the upstream delay that exceeds it. */
const TIMEOUT_MS = 800;
const SLOW_MS = 2500;

// Chunks a little apart, so a cut after N chunks reaches the gateway as N separate reads.
const simulator = (chunkDelayMs: number) =>
  new ChatSimulator({ flavor: 'openai', credential: 'sim-credential', models: ['m'], reply: REPLY, chunkDelayMs });
/** Behind the single-deployment groups. */
const lone = simulator(25);
/** Pauses longer than TIMEOUT_MS between chunks: a stream that stalls once started. */
const stalling = simulator(5 * TIMEOUT_MS);
/** Behind the pairs: the faulty one is weighted to be tried first, the healthy one serves the retry. */
const sick = simulator(25);
const well = simulator(25);
const sims = [lone, stalling, sick, well];

const group = (id: string, deployments: string[]) => `
  - id: ${id}
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: ${INPUT_PER_MTOK}, output_per_mtok: ${OUTPUT_PER_MTOK} }
    deployments:
${deployments.map((d) => `      - ${d}`).join('\n')}`;
const deployment = (url: string, extra = '') => `{ provider: openai, model: m, api_base: "${url}/v1", api_key_env: SIM_KEY${extra} }`;

/** Every fault reaches the caller: one deployment a group, no retry. */
function loneConfig(loneUrl: string, stallingUrl: string): string {
  const groups = [
    group('lone-healthy', [deployment(loneUrl)]),
    group('lone-429', [deployment(loneUrl)]),
    group('lone-429-bare', [deployment(loneUrl)]),
    group('lone-500', [deployment(loneUrl)]),
    group('lone-503', [deployment(loneUrl)]),
    group('lone-timeout', [deployment(loneUrl, `, timeout_ms: ${TIMEOUT_MS}`)]),
    group('lone-reset', [deployment(loneUrl)]),
    group('lone-cut', [deployment(loneUrl)]),
    group('lone-stall', [deployment(stallingUrl, `, timeout_ms: ${TIMEOUT_MS}`)]),
    group('lone-no-usage', [deployment(loneUrl)]),
  ];
  return `groups:${groups.join('')}
router: { retries: 0, allowed_fails: 3, cooldown_seconds: 30, timeout_ms: 10000 }
`;
}

/** One retry, on the other deployment of a pair. */
function pairConfig(sickUrl: string, wellUrl: string): string {
  const pair = (id: string, sickExtra = '') =>
    group(id, [deployment(sickUrl, `, weight: 99${sickExtra}`), deployment(wellUrl, ', weight: 1')]);
  const groups = [
    pair('pair-429'),
    pair('pair-429-bare'),
    pair('pair-500'),
    pair('pair-503'),
    pair('pair-timeout', `, timeout_ms: ${TIMEOUT_MS}`),
    pair('pair-reset'),
    pair('pair-cut'),
  ];
  return `groups:${groups.join('')}
router: { retries: 1, allowed_fails: 3, cooldown_seconds: 30, timeout_ms: 10000 }
`;
}

let lonely: TestGateway;
let paired: TestGateway;

beforeAll(async () => {
  const [loneUrl, stallingUrl, sickUrl, wellUrl] = await Promise.all(sims.map((s) => s.listen()));
  const env = { SIM_KEY: 'sim-credential' };
  [lonely, paired] = await Promise.all([
    startTestGateway({ config: parseConfig(loneConfig(loneUrl as string, stallingUrl as string), 'faults-lone'), env }),
    startTestGateway({ config: parseConfig(pairConfig(sickUrl as string, wellUrl as string), 'faults-pair'), env }),
  ]);
});
afterAll(async () => {
  await Promise.all([lonely, paired].filter(Boolean).map((g) => stopTestGateway(g)));
  await Promise.all(sims.map((s) => s.close()));
});

/** A fresh key, so each call's bill is read on its own. */
async function newKey(gateway: TestGateway): Promise<string> {
  return (await gateway.createKey({ models: ['*'], budget_usd: 10 })).key;
}

function chat(gateway: TestGateway, secret: string, model: string, stream: boolean): Promise<Response> {
  return gateway.call('/v1/chat/completions', secret, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: MESSAGES, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) }),
  });
}

interface Bill {
  spentNanos: number;
  reservedNanos: number;
  /** The ledger by group: what was billed, in how many calls. */
  byModel: { model: string; spentNanos: number; requests: number }[];
}

const nanos = (usd: number) => Math.round(usd * 1e9);

/**
 * The key's bill once nothing is held for it any more: the call's hold settled or given back,
 * and the chat service's lease on the key returned (about 2 s after its last call).
 */
async function settledBill(gateway: TestGateway, secret: string): Promise<Bill> {
  const read = async () =>
    (await (await gateway.call('/v1/usage', secret)).json()) as {
      budget: { spent_usd: number; reserved_usd: number };
      by_model: { model: string; spent_usd: number; requests: number }[];
    };
  await eventually(async () => (await read()).budget.reserved_usd === 0, 15_000);
  const usage = await read();
  return {
    spentNanos: nanos(usage.budget.spent_usd),
    reservedNanos: nanos(usage.budget.reserved_usd),
    byModel: usage.by_model.map((m) => ({ model: m.model, spentNanos: nanos(m.spent_usd), requests: m.requests })),
  };
}

const unbilled: Bill = { spentNanos: 0, reservedNanos: 0, byModel: [] };
const billed = (model: string, calls: number): Bill => ({
  spentNanos: calls * CALL_NANOS,
  reservedNanos: 0,
  byModel: [{ model, spentNanos: calls * CALL_NANOS, requests: calls }],
});

/** Asserts an OpenAI-shaped error answer with exactly this status, code and type, naming no upstream. */
async function expectError(response: Response, status: number, code: string, type: string): Promise<void> {
  const text = await response.text();
  expect({ status: response.status, body: JSON.parse(text) as unknown }).toEqual({
    status,
    body: { error: { message: expect.any(String), type, code, param: null } },
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(text).not.toMatch(/127\.0\.0\.1|sim-credential|upstream-\d/);
}

interface StreamSeen {
  status: number;
  contentType: string | null;
  /** The `choices[0].delta.content` of every chunk, in order (the first, the role's, is ""). */
  contents: string[];
  usage: unknown;
  /** The `data: {"error": …}` event, when one ended the stream. */
  error: unknown;
  done: boolean;
}

/** Reads a 200 event stream to its end, sorting its events. */
async function readStream(response: Response): Promise<StreamSeen> {
  const text = await response.text();
  const seen: StreamSeen = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    contents: [],
    usage: undefined,
    error: undefined,
    done: false,
  };
  for (const event of text.split('\n\n').filter((e) => e !== '')) {
    expect(event.startsWith('data: ')).toBe(true);
    const data = event.slice('data: '.length);
    expect(seen.done).toBe(false);
    expect(seen.error).toBeUndefined();
    if (data === '[DONE]') {
      seen.done = true;
      continue;
    }
    const parsed = JSON.parse(data) as { error?: unknown; usage?: unknown; choices?: { delta?: { content?: string } }[] };
    if (parsed.error !== undefined) seen.error = parsed;
    else if (parsed.choices?.length === 0) seen.usage = parsed.usage;
    else seen.contents.push(parsed.choices?.[0]?.delta?.content ?? '');
  }
  return seen;
}

interface LogLine {
  level: string;
  msg: string;
  group?: string;
  [field: string]: unknown;
}

/** The gateway's log lines about one group (the access lines name it too). */
function linesAbout(gateway: TestGateway, groupId: string): LogLine[] {
  return gateway.logs
    .flatMap((chunk) => chunk.split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.group === groupId && line.level !== 'debug');
}
const shortly = (gateway: TestGateway, groupId: string, count: number) =>
  eventually(() => linesAbout(gateway, groupId).length >= count, 5000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const HEALTHY_STREAM = {
  status: 200,
  contentType: 'text/event-stream; charset=utf-8',
  // The role's chunk, a chunk a word, the finish_reason chunk.
  contents: ['', ...REPLY.split(' ').map((word, i) => (i === 0 ? word : ` ${word}`)), ''],
  usage: expect.objectContaining({ prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS }),
  error: undefined,
  done: true,
};

describe('one deployment, no retry: the fault reaches the caller', () => {
  it('(the baseline) a healthy call, plain or streamed, is billed 1 × 3,000 + 9 × 4,000 = 39,000 nano-USD', async () => {
    expect(CALL_NANOS).toBe(39_000);
    const [plainKey, streamKey] = await Promise.all([newKey(lonely), newKey(lonely)]);
    expect(await (await chat(lonely, plainKey, 'lone-healthy', false)).json()).toMatchObject({
      choices: [{ message: { content: REPLY } }],
      usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS },
    });
    expect(await readStream(await chat(lonely, streamKey, 'lone-healthy', true))).toEqual(HEALTHY_STREAM);
    expect(await settledBill(lonely, plainKey)).toEqual(billed('lone-healthy', 1));
    expect(await settledBill(lonely, streamKey)).toEqual(billed('lone-healthy', 1));
  });

  it('429 with Retry-After: 429 upstream_rate_limited with the same Retry-After; the deployment paused for exactly that long; nothing billed', async () => {
    const [plainKey, streamKey, laterKey] = await Promise.all([newKey(lonely), newKey(lonely), newKey(lonely)]);
    const before = lone.requests.length;

    lone.fail({ status: 429, retryAfter: 1 });
    const plain = await chat(lonely, plainKey, 'lone-429', false);
    expect(plain.headers.get('retry-after')).toBe('1');
    await expectError(plain, 429, 'upstream_rate_limited', 'rate_limit_error');
    // Within the pause the gateway answers for the upstream: the same 429, no upstream call.
    const paused = await chat(lonely, plainKey, 'lone-429', true);
    expect(paused.headers.get('retry-after')).toBe('1');
    await expectError(paused, 429, 'upstream_rate_limited', 'rate_limit_error');
    expect(lone.requests.length - before).toBe(1);
    await sleep(1000);

    lone.fail({ status: 429, retryAfter: 1 });
    const streamed = await chat(lonely, streamKey, 'lone-429', true);
    expect(streamed.headers.get('retry-after')).toBe('1');
    await expectError(streamed, 429, 'upstream_rate_limited', 'rate_limit_error');
    await sleep(1000);

    // The pause over and the upstream healthy, the next call is served and billed once.
    expect(await (await chat(lonely, laterKey, 'lone-429', false)).json()).toMatchObject({ choices: [{ message: { content: REPLY } }] });
    expect(lone.requests.length - before).toBe(3);
    expect(await settledBill(lonely, plainKey)).toEqual(unbilled);
    expect(await settledBill(lonely, streamKey)).toEqual(unbilled);
    expect(await settledBill(lonely, laterKey)).toEqual(billed('lone-429', 1));
    // A warn per upstream 429; the gateway's own 429 in the pause has only its access line.
    await shortly(lonely, 'lone-429', 6);
    const lines = linesAbout(lonely, 'lone-429');
    expect(lines.map((l) => [l.level, l.msg, l.code, l.upstreamStatus ?? l.status])).toEqual([
      ['warn', 'upstream attempt failed', 'upstream_status', 429],
      ['info', 'request', 'upstream_rate_limited', 429],
      ['info', 'request', 'upstream_rate_limited', 429],
      ['warn', 'upstream attempt failed', 'upstream_status', 429],
      ['info', 'request', 'upstream_rate_limited', 429],
      ['info', 'request', undefined, 200],
    ]);
  });

  it('429 without Retry-After: 429 upstream_rate_limited with Retry-After: 1 (every 429 says when); no pause; nothing billed', async () => {
    const [plainKey, streamKey, laterKey] = await Promise.all([newKey(lonely), newKey(lonely), newKey(lonely)]);
    const before = lone.requests.length;
    lone.fail({ status: 429 }, { status: 429 });
    const plain = await chat(lonely, plainKey, 'lone-429-bare', false);
    expect(plain.headers.get('retry-after')).toBe('1');
    await expectError(plain, 429, 'upstream_rate_limited', 'rate_limit_error');
    const streamed = await chat(lonely, streamKey, 'lone-429-bare', true);
    expect(streamed.headers.get('retry-after')).toBe('1');
    await expectError(streamed, 429, 'upstream_rate_limited', 'rate_limit_error');
    // No pause to sit out: the very next call reaches the upstream and is served.
    expect((await chat(lonely, laterKey, 'lone-429-bare', false)).status).toBe(200);
    expect(lone.requests.length - before).toBe(3);
    expect(await settledBill(lonely, plainKey)).toEqual(unbilled);
    expect(await settledBill(lonely, streamKey)).toEqual(unbilled);
    expect(await settledBill(lonely, laterKey)).toEqual(billed('lone-429-bare', 1));
  });

  it('500: 502 upstream_error, no Retry-After; nothing billed; the next call is served', async () => {
    const [plainKey, streamKey, laterKey] = await Promise.all([newKey(lonely), newKey(lonely), newKey(lonely)]);
    lone.fail({ status: 500 }, { status: 500 });
    const plain = await chat(lonely, plainKey, 'lone-500', false);
    expect(plain.headers.get('retry-after')).toBeNull();
    await expectError(plain, 502, 'upstream_error', 'upstream_error');
    const streamed = await chat(lonely, streamKey, 'lone-500', true);
    expect(streamed.headers.get('retry-after')).toBeNull();
    await expectError(streamed, 502, 'upstream_error', 'upstream_error');
    // Two failures in a row, under allowed_fails, and a group's last deployment is never cooled anyway.
    expect((await chat(lonely, laterKey, 'lone-500', false)).status).toBe(200);
    expect(await settledBill(lonely, plainKey)).toEqual(unbilled);
    expect(await settledBill(lonely, streamKey)).toEqual(unbilled);
    expect(await settledBill(lonely, laterKey)).toEqual(billed('lone-500', 1));
    await shortly(lonely, 'lone-500', 5);
    const lines = linesAbout(lonely, 'lone-500');
    expect(lines.filter((l) => l.msg === 'upstream attempt failed').map((l) => [l.level, l.code, l.upstreamStatus])).toEqual([
      ['warn', 'upstream_status', 500],
      ['warn', 'upstream_status', 500],
    ]);
    expect(lines.filter((l) => l.msg === 'request').map((l) => [l.status, l.code])).toEqual([
      [502, 'upstream_error'],
      [502, 'upstream_error'],
      [200, undefined],
    ]);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('503 with Retry-After: 502 upstream_error, and the upstream’s Retry-After is dropped; nothing billed', async () => {
    const [plainKey, streamKey, laterKey] = await Promise.all([newKey(lonely), newKey(lonely), newKey(lonely)]);
    const before = lone.requests.length;
    lone.fail({ status: 503, retryAfter: 7 }, { status: 503, retryAfter: 7 });
    const plain = await chat(lonely, plainKey, 'lone-503', false);
    expect(plain.headers.get('retry-after')).toBeNull();
    await expectError(plain, 502, 'upstream_error', 'upstream_error');
    const streamed = await chat(lonely, streamKey, 'lone-503', true);
    expect(streamed.headers.get('retry-after')).toBeNull();
    await expectError(streamed, 502, 'upstream_error', 'upstream_error');
    // A 503's Retry-After pauses nothing: the next call goes straight to the upstream.
    expect((await chat(lonely, laterKey, 'lone-503', false)).status).toBe(200);
    expect(lone.requests.length - before).toBe(3);
    expect(await settledBill(lonely, plainKey)).toEqual(unbilled);
    expect(await settledBill(lonely, streamKey)).toEqual(unbilled);
    expect(await settledBill(lonely, laterKey)).toEqual(billed('lone-503', 1));
  });

  it('no response headers within timeout_ms: 504 upstream_timeout after the timeout, not the upstream’s delay; nothing billed', async () => {
    const [plainKey, streamKey, laterKey] = await Promise.all([newKey(lonely), newKey(lonely), newKey(lonely)]);
    lone.fail({ delayMs: SLOW_MS }, { delayMs: SLOW_MS });
    for (const [secret, stream] of [
      [plainKey, false],
      [streamKey, true],
    ] as const) {
      const started = performance.now();
      const response = await chat(lonely, secret, 'lone-timeout', stream);
      const waited = performance.now() - started;
      expect(response.headers.get('retry-after')).toBeNull();
      await expectError(response, 504, 'upstream_timeout', 'timeout_error');
      expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(waited).toBeLessThan(SLOW_MS);
    }
    expect((await chat(lonely, laterKey, 'lone-timeout', false)).status).toBe(200);
    expect(await settledBill(lonely, plainKey)).toEqual(unbilled);
    expect(await settledBill(lonely, streamKey)).toEqual(unbilled);
    expect(await settledBill(lonely, laterKey)).toEqual(billed('lone-timeout', 1));
    await shortly(lonely, 'lone-timeout', 5);
    const warned = linesAbout(lonely, 'lone-timeout').filter((l) => l.level === 'warn');
    expect(warned.map((l) => [l.msg, l.code, l.upstreamStatus])).toEqual([
      ['upstream attempt failed', 'upstream_timeout', undefined],
      ['upstream attempt failed', 'upstream_timeout', undefined],
    ]);
  });

  it('connection reset before any byte: 502 upstream_error, no Retry-After; nothing billed; the next call is served', async () => {
    const [plainKey, streamKey, laterKey] = await Promise.all([newKey(lonely), newKey(lonely), newKey(lonely)]);
    lone.fail({ reset: true }, { reset: true });
    const plain = await chat(lonely, plainKey, 'lone-reset', false);
    expect(plain.headers.get('retry-after')).toBeNull();
    await expectError(plain, 502, 'upstream_error', 'upstream_error');
    const streamed = await chat(lonely, streamKey, 'lone-reset', true);
    expect(streamed.headers.get('retry-after')).toBeNull();
    await expectError(streamed, 502, 'upstream_error', 'upstream_error');
    expect((await chat(lonely, laterKey, 'lone-reset', true)).status).toBe(200);
    expect(await settledBill(lonely, plainKey)).toEqual(unbilled);
    expect(await settledBill(lonely, streamKey)).toEqual(unbilled);
    expect(await settledBill(lonely, laterKey)).toEqual(billed('lone-reset', 1));
    await shortly(lonely, 'lone-reset', 5);
    const warned = linesAbout(lonely, 'lone-reset').filter((l) => l.level === 'warn');
    expect(warned.map((l) => [l.msg, l.code, l.reason])).toEqual([
      ['upstream attempt failed', 'upstream_connect', 'ECONNRESET'],
      ['upstream attempt failed', 'upstream_connect', 'ECONNRESET'],
    ]);
  });

  it('stream cut after 4 chunks: 200, those 4 chunks, then an upstream_error event and the end, no [DONE]; nothing billed', async () => {
    const [cutKey, laterKey] = await Promise.all([newKey(lonely), newKey(lonely)]);
    lone.fail({ cutAfterChunks: 4 });
    const seen = await readStream(await chat(lonely, cutKey, 'lone-cut', true));
    expect(seen).toEqual({
      status: 200,
      contentType: 'text/event-stream; charset=utf-8',
      contents: ['', 'Hello', ' from', ' the'],
      usage: undefined,
      error: { error: { message: expect.any(String), type: 'upstream_error', code: 'upstream_error', param: null } },
      done: false,
    });
    // The upstream produced tokens, but sent no usage: the cut call is not billed at all.
    expect(await readStream(await chat(lonely, laterKey, 'lone-cut', true))).toEqual(HEALTHY_STREAM);
    expect(await settledBill(lonely, cutKey)).toEqual(unbilled);
    expect(await settledBill(lonely, laterKey)).toEqual(billed('lone-cut', 1));
    await shortly(lonely, 'lone-cut', 3);
    const lines = linesAbout(lonely, 'lone-cut');
    // Logged as a lost connection (undici's socket error): the body ended mid-chunk.
    expect(lines.filter((l) => l.level === 'warn').map((l) => [l.msg, l.code, l.reason])).toEqual([
      ['upstream stream failed after it started', 'upstream_connect', 'UND_ERR_SOCKET'],
    ]);
    expect(lines.filter((l) => l.msg === 'request').map((l) => [l.status, l.code])).toEqual([
      [200, 'upstream_error'],
      [200, undefined],
    ]);
  });

  it('stream stalled longer than timeout_ms after its first chunk: 200, that chunk, then an upstream_timeout event; nothing billed', async () => {
    const stalledKey = await newKey(lonely);
    const seen = await readStream(await chat(lonely, stalledKey, 'lone-stall', true));
    expect(seen).toEqual({
      status: 200,
      contentType: 'text/event-stream; charset=utf-8',
      contents: [''],
      usage: undefined,
      error: { error: { message: expect.any(String), type: 'timeout_error', code: 'upstream_timeout', param: null } },
      done: false,
    });
    expect(await settledBill(lonely, stalledKey)).toEqual(unbilled);
    await shortly(lonely, 'lone-stall', 2);
    expect(linesAbout(lonely, 'lone-stall').map((l) => [l.level, l.msg, l.code, l.status])).toEqual([
      ['warn', 'upstream stream failed after it started', 'upstream_timeout', undefined],
      ['info', 'request', 'upstream_timeout', 200],
    ]);
  });

  it('stream ended cleanly without its usage chunk: 200, every chunk, an estimated usage chunk and [DONE]; billed on the count, marked estimated', async () => {
    const [countedKey, laterKey] = await Promise.all([newKey(lonely), newKey(lonely)]);
    lone.fail({ omitUsage: true });
    const counted = await readStream(await chat(lonely, countedKey, 'lone-no-usage', true));
    // The gateway's own count, shown to the caller who asked for usage: the whole reply arrived.
    expect(counted).toEqual({
      ...HEALTHY_STREAM,
      usage: expect.objectContaining({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) }),
    });
    const estimate = counted.usage as { prompt_tokens: number; completion_tokens: number };
    expect(estimate.prompt_tokens).toBeGreaterThan(0);
    expect(estimate.completion_tokens).toBeGreaterThanOrEqual(COMPLETION_TOKENS);
    const estimatedNanos = estimate.prompt_tokens * INPUT_PER_MTOK * 1000 + estimate.completion_tokens * OUTPUT_PER_MTOK * 1000;
    expect(await readStream(await chat(lonely, laterKey, 'lone-no-usage', true))).toEqual(HEALTHY_STREAM);
    expect(await settledBill(lonely, countedKey)).toEqual({
      spentNanos: estimatedNanos,
      reservedNanos: 0,
      byModel: [{ model: 'lone-no-usage', spentNanos: estimatedNanos, requests: 1 }],
    });
    expect(await settledBill(lonely, laterKey)).toEqual(billed('lone-no-usage', 1));
    await shortly(lonely, 'lone-no-usage', 4);
    const lines = linesAbout(lonely, 'lone-no-usage');
    expect(lines.map((l) => [l.level, l.msg, l.status, l.completionTokens, l.costUsd])).toEqual([
      ['warn', 'upstream stream without usage; billed on an estimate', undefined, undefined, undefined],
      ['info', 'chat call billed on an estimate', undefined, estimate.completion_tokens, estimatedNanos / 1e9],
      ['info', 'request', 200, estimate.completion_tokens, estimatedNanos / 1e9],
      ['info', 'request', 200, COMPLETION_TOKENS, CALL_NANOS / 1e9],
    ]);
    expect(lines[2]).toMatchObject({ estimated: true });
  });
});

describe('two deployments, one retry: faults before the first chunk are hidden', () => {
  async function expectServed(response: Response, stream: boolean): Promise<void> {
    if (stream) expect(await readStream(response)).toEqual(HEALTHY_STREAM);
    else expect(await response.json()).toMatchObject({ choices: [{ message: { content: REPLY } }] });
  }

  /**
   * Calls until the sick deployment has taken one request (weighted 99 to 1, it is almost always
   * tried first), each call served; returns how many calls that took.
   */
  async function untilSickTried(secret: string, model: string, stream: boolean): Promise<number> {
    const before = sick.requests.length;
    let calls = 0;
    while (sick.requests.length === before) {
      expect(calls).toBeLessThan(20);
      calls += 1;
      await expectServed(await chat(paired, secret, model, stream), stream);
    }
    expect(sick.requests.length - before).toBe(1);
    return calls;
  }

  const hidden: [string, string, ChatFault][] = [
    ['429 with Retry-After', 'pair-429', { status: 429, retryAfter: 30 }],
    ['429 without Retry-After', 'pair-429-bare', { status: 429 }],
    ['500', 'pair-500', { status: 500 }],
    ['503', 'pair-503', { status: 503 }],
    ['a timeout', 'pair-timeout', { delayMs: SLOW_MS }],
    ['a connection reset', 'pair-reset', { reset: true }],
  ];
  for (const [fault, model, spec] of hidden) {
    const pauses = spec.retryAfter !== undefined;
    const effect = pauses ? 'the faulty one skipped for the pause' : 'the faulty one cooled down after 3 in a row';
    it(`${fault}: the other deployment serves, plain and streamed, each call billed once; ${effect}`, async () => {
      const [plainKey, streamKey, laterKey] = await Promise.all([newKey(paired), newKey(paired), newKey(paired)]);
      const wellBefore = well.requests.length;
      sick.fail(spec);
      const plainCalls = await untilSickTried(plainKey, model, false);
      let streamCalls = 1;
      let laterCalls = 3;
      if (pauses) {
        // Paused for the 429's 30 s: the next calls skip it without a try.
        const sickBefore = sick.requests.length;
        await expectServed(await chat(paired, streamKey, model, true), true);
        for (let i = 0; i < laterCalls; i += 1) await expectServed(await chat(paired, laterKey, model, false), false);
        expect(sick.requests.length).toBe(sickBefore);
      } else {
        sick.fail(spec);
        streamCalls = await untilSickTried(streamKey, model, true);
        // The third failure in a row (allowed_fails: 3) cools it for 30 s, its sibling being usable.
        sick.fail(spec);
        const tried = await untilSickTried(laterKey, model, false);
        const sickBefore = sick.requests.length;
        for (let i = 0; i < laterCalls; i += 1) await expectServed(await chat(paired, laterKey, model, false), false);
        expect(sick.requests.length).toBe(sickBefore);
        laterCalls += tried;
      }
      expect(well.requests.length - wellBefore).toBe(plainCalls + streamCalls + laterCalls);
      expect(await settledBill(paired, plainKey)).toEqual(billed(model, plainCalls));
      expect(await settledBill(paired, streamKey)).toEqual(billed(model, streamCalls));
      expect(await settledBill(paired, laterKey)).toEqual(billed(model, laterCalls));
      // Each failed attempt is a warn (the first attempt); every call's access line says 200.
      const failedAttempts = pauses ? 1 : 3;
      const calls = plainCalls + streamCalls + laterCalls;
      await shortly(paired, model, failedAttempts + calls);
      const lines = linesAbout(paired, model);
      expect(lines.filter((l) => l.level === 'warn').map((l) => [l.msg, l.attempt])).toEqual(
        Array.from({ length: failedAttempts }, () => ['upstream attempt failed', 1]),
      );
      expect(lines.filter((l) => l.msg === 'request').map((l) => l.status)).toEqual(Array.from({ length: calls }, () => 200));
    });
  }

  it('a stream cut after its first chunks is not retried: the caller still gets the error event; only served calls billed', async () => {
    const key = await newKey(paired);
    const [sickBefore, wellBefore] = [sick.requests.length, well.requests.length];
    sick.fail({ cutAfterChunks: 4 });
    let calls = 0;
    let seen: StreamSeen | undefined;
    while (sick.requests.length === sickBefore) {
      expect(calls).toBeLessThan(20);
      calls += 1;
      seen = await readStream(await chat(paired, key, 'pair-cut', true));
      if (sick.requests.length === sickBefore) expect(seen).toEqual(HEALTHY_STREAM);
    }
    expect(seen).toEqual({
      status: 200,
      contentType: 'text/event-stream; charset=utf-8',
      contents: ['', 'Hello', ' from', ' the'],
      usage: undefined,
      error: { error: { message: expect.any(String), type: 'upstream_error', code: 'upstream_error', param: null } },
      done: false,
    });
    // The healthy deployment took only the calls before the cut one: no retry after the first chunk.
    expect(well.requests.length - wellBefore).toBe(calls - 1);
    expect(await settledBill(paired, key)).toEqual(calls === 1 ? unbilled : billed('pair-cut', calls - 1));
  });
});

describe('every row above', () => {
  it('logged nothing at error but the stream without usage', () => {
    const errors = [lonely, paired].flatMap((gateway) =>
      gateway.logs
        .flatMap((chunk) => chunk.split('\n').filter(Boolean))
        .map((line) => JSON.parse(line) as LogLine)
        .filter((line) => line.level === 'error' || line.level === 'fatal'),
    );
    const expected = (l: LogLine) => l.group === 'lone-no-usage' && l.msg === 'upstream stream without usage; not metered';
    expect(errors.filter((l) => !expected(l))).toEqual([]);
  });
});
