import { parseConfig } from '@gateway/config';
import { ChatSimulator } from '@gateway/simulators';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The bill equals the vendor's: cached prompt tokens at the cache-hit price, the price window in
// force when the upstream call started, streams the caller abandons billed for what they
// consumed (marked estimated), and holds that cover the whole prompt, tool schemas included.
// The official openai SDK against the whole gateway, on simulators that report cache hits the
// way DeepSeek does and on the built-in demo provider.

const deepseek = new ChatSimulator({ flavor: 'deepseek', credential: 'ds-credential', models: ['deepseek-v4-flash'] });
const openai = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'] });
/** Spaced chunks, so a cut after N chunks comes after the first chunk reached the caller. */
const spaced = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'], chunkDelayMs: 20 });
const sims = [deepseek, openai, spaced];

/** USD per million tokens as the configuration writes them. */
const FLASH = { input: '0.14', hit: '0.0028', output: '0.28' };
const PEAK = { input: '0.28', hit: '0.0056', output: '0.56' };
const PLAIN = { input: '1.5', hit: '0.375', output: '2' };

function config(ds: string, oa: string, sp: string): string {
  return `
groups:
  - id: demo-chat
    mode: chat
    max_input_tokens: 32768
    max_output_tokens: 1024
    price: { input_per_mtok: 0.01, output_per_mtok: 0.02 }
    deployments: [{ provider: demo, model: demo-chat }]
  - id: flash
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 8192
    price:
      input_per_mtok: ${FLASH.input}
      input_cache_hit_per_mtok: ${FLASH.hit}
      output_per_mtok: ${FLASH.output}
      windows:
        - { utc: "01:00-04:00", input_per_mtok: ${PEAK.input}, input_cache_hit_per_mtok: ${PEAK.hit}, output_per_mtok: ${PEAK.output} }
        - { utc: "06:00-10:00", input_per_mtok: ${PEAK.input}, input_cache_hit_per_mtok: ${PEAK.hit}, output_per_mtok: ${PEAK.output} }
    deployments: [{ provider: deepseek, model: deepseek-v4-flash, api_base: "${ds}", api_key_env: DS_KEY }]
  - id: plain
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: ${PLAIN.input}, input_cache_hit_per_mtok: ${PLAIN.hit}, output_per_mtok: ${PLAIN.output} }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${oa}/v1", api_key_env: OA_KEY }]
  - id: spaced
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: ${PLAIN.input}, output_per_mtok: ${PLAIN.output} }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${sp}/v1", api_key_env: OA_KEY }]
router: { retries: 0, allowed_fails: 1000, cooldown_seconds: 1, timeout_ms: 5000 }
server: { key_cache_ttl_ms: 0 }
`;
}

let gateway: TestGateway;
/** Added to the real time: accounting and chat read the same clock, moved forward only. */
let offsetMs = 0;

/** The next day's hh:mm UTC, as an offset from now. */
function moveClockTo(hour: number, minute = 0): void {
  const day = new Date(Date.now() + offsetMs + 86_400_000);
  const target = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute, 0, 0);
  offsetMs = target - Date.now();
}

beforeAll(async () => {
  const [ds, oa, sp] = await Promise.all(sims.map((sim) => sim.listen()));
  gateway = await startTestGateway({
    config: parseConfig(config(ds!, oa!, sp!), 'metering-test'),
    env: { DS_KEY: 'ds-credential', OA_KEY: 'oa-credential' },
    clock: () => Date.now() + offsetMs,
  });
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await Promise.all(sims.map((sim) => sim.close()));
});
beforeEach(() => {
  for (const sim of sims) sim.requests.length = 0;
});

/** An exact decimal string as units and a power of ten. */
function decimal(text: string): { units: bigint; scale: number } {
  const [whole = '0', fraction = ''] = text.split('.');
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/**
 * Nano-dollars for token counts at prices in USD per million tokens, computed by hand: the exact
 * sum, then rounded once to the nearest nano-dollar, ties up (what the docs promise).
 */
function expectedNanos(parts: [tokens: number, usdPerMtok: string][]): number {
  const scale = Math.max(...parts.map(([, price]) => decimal(price).scale));
  let numerator = 0n;
  for (const [tokens, price] of parts) {
    const { units, scale: s } = decimal(price);
    // tokens × price / 1e6 USD = tokens × price × 1e3 nano-USD.
    numerator += BigInt(tokens) * units * 10n ** BigInt(scale - s) * 1000n;
  }
  const denominator = 10n ** BigInt(scale);
  return Number((2n * numerator + denominator) / (2n * denominator));
}

function billOf(usage: { prompt: number; cached: number; completion: number }, price: typeof FLASH): number {
  return expectedNanos([
    [usage.prompt - usage.cached, price.input],
    [usage.cached, price.hit],
    [usage.completion, price.output],
  ]);
}

interface SpendRow {
  id: string;
  cost_usd: number;
  cached_tokens: number;
  cache_saved_usd: number;
  estimated: boolean;
  usage: Record<string, number>;
}

async function spendRows(keyId: string, count: number): Promise<SpendRow[]> {
  let rows: SpendRow[] = [];
  await eventually(async () => {
    const response = await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${keyId}&limit=100`);
    rows = ((await response.json()) as { data: SpendRow[] }).data;
    return rows.length >= count;
  }, 10_000);
  return rows;
}

const nanos = (usd: number) => Math.round(usd * 1e9);

async function newClient(models: string[], extra: Record<string, unknown> = {}): Promise<{ client: OpenAI; id: string; key: string }> {
  const { key, id } = await gateway.createKey({ models, budget_usd: 50, ...extra });
  return { client: new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 }), id, key };
}

/** A prompt prefix of many 64-token blocks, the same on every call. */
const PREFIX = `You are a coding agent. ${'Read the repository, plan the change, run the tests, and report. '.repeat(120)}`;

describe('cached prompt tokens', () => {
  it('are billed at the cache-hit price, exactly, and shown in the answer, the spend log and the saving', async () => {
    moveClockTo(12);
    const { client, id } = await newClient(['flash']);
    const ask = (question: string) =>
      client.chat.completions.create({
        model: 'flash',
        messages: [
          { role: 'system', content: PREFIX },
          { role: 'user', content: question },
        ],
      });
    const first = await ask('What changed first?');
    const second = await ask('And what changed next?');
    expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cached).toBeGreaterThan(0);
    expect(cached % 64).toBe(0);
    // The vendor's own fields do not reach the caller: the answer is OpenAI's shape whoever served it.
    expect(JSON.stringify(second.usage)).not.toContain('prompt_cache_hit_tokens');

    const rows = await spendRows(id, 2);
    const row = rows.find((r) => r.id === second.id)!;
    const usage = { prompt: second.usage!.prompt_tokens, cached, completion: second.usage!.completion_tokens };
    expect(nanos(row.cost_usd)).toBe(billOf(usage, FLASH));
    expect(row.cached_tokens).toBe(cached);
    expect(nanos(row.cache_saved_usd)).toBe(expectedNanos([[cached, FLASH.input]]) - expectedNanos([[cached, FLASH.hit]]));
    expect(row.estimated).toBe(false);
    const firstRow = rows.find((r) => r.id === first.id)!;
    expect(nanos(firstRow.cost_usd)).toBe(
      billOf({ prompt: first.usage!.prompt_tokens, cached: 0, completion: first.usage!.completion_tokens }, FLASH),
    );
  });

  it('are read from prompt_tokens_details on OpenAI-compatible upstreams, plain and streamed', async () => {
    const { client, id } = await newClient(['plain']);
    const messages = [{ role: 'user' as const, content: PREFIX }];
    await client.chat.completions.create({ model: 'plain', messages });
    const stream = await client.chat.completions.create({
      model: 'plain',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | undefined | null;
    let chunkId = '';
    for await (const chunk of stream) {
      chunkId = chunk.id;
      if (chunk.usage) usage = chunk.usage;
    }
    const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cached).toBeGreaterThan(0);
    const row = (await spendRows(id, 2)).find((r) => r.id === chunkId)!;
    expect(nanos(row.cost_usd)).toBe(billOf({ prompt: usage!.prompt_tokens, cached, completion: usage!.completion_tokens }, PLAIN));
    expect(row.cached_tokens).toBe(cached);
  });

  it('are counted in gateway_tokens_total{kind="cached"}', async () => {
    const before = await cachedTokensMetric('plain');
    const { client } = await newClient(['plain']);
    const messages = [{ role: 'user' as const, content: `Metrics first. ${PREFIX}` }];
    await client.chat.completions.create({ model: 'plain', messages });
    const answer = await client.chat.completions.create({ model: 'plain', messages });
    const cached = answer.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cached).toBeGreaterThan(0);
    expect((await cachedTokensMetric('plain')) - before).toBe(cached);
  });
});

describe('an agent-like workload', () => {
  it("is billed what the vendor's own arithmetic gives, call by call and in sum", async () => {
    moveClockTo(13);
    const { client, id } = await newClient(['flash']);
    // A coding agent: a long stable system prompt, the history resent every turn.
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: `${PREFIX} Agent run.` }];
    const answers: OpenAI.ChatCompletion[] = [];
    for (let turn = 0; turn < 12; turn += 1) {
      history.push({ role: 'user', content: `Turn ${turn}: ${'Look at the next file and say what it does. '.repeat(6)}` });
      const answer = await client.chat.completions.create({ model: 'flash', messages: history });
      answers.push(answer);
      history.push({ role: 'assistant', content: answer.choices[0]?.message.content ?? '' });
    }
    const rows = await spendRows(id, answers.length);
    let prompt = 0;
    let cached = 0;
    let billedSum = 0;
    let vendorSum = 0;
    for (const answer of answers) {
      const usage = {
        prompt: answer.usage!.prompt_tokens,
        cached: answer.usage!.prompt_tokens_details?.cached_tokens ?? 0,
        completion: answer.usage!.completion_tokens,
      };
      const row = rows.find((r) => r.id === answer.id)!;
      // Each call to the nano-dollar, as the vendor's price list gives it.
      expect(nanos(row.cost_usd)).toBe(billOf(usage, FLASH));
      prompt += usage.prompt;
      cached += usage.cached;
      billedSum += nanos(row.cost_usd);
      vendorSum += billOf(usage, FLASH);
    }
    expect(billedSum).toBe(vendorSum);
    // Most of the prompt was served from the cache, as for a real agent.
    expect(cached / prompt).toBeGreaterThan(0.85);
    const uncachedBill = expectedNanos([[prompt, FLASH.input]]);
    expect(billedSum).toBeLessThan(uncachedBill / 4);
  });
});

async function metricsText(): Promise<string> {
  if (!gateway.metricsUrl) throw new Error('the test gateway serves no metrics');
  return (await fetch(gateway.metricsUrl)).text();
}

async function cachedTokensMetric(group: string): Promise<number> {
  const line = (await metricsText()).split('\n').find((l) => l.startsWith(`gateway_tokens_total{group="${group}",kind="cached"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function estimatedCallsMetric(group: string): Promise<number> {
  const line = (await metricsText()).split('\n').find((l) => l.startsWith(`gateway_estimated_calls_total{group="${group}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('time-of-day prices', () => {
  it('price a call at the window in force when its upstream call started', async () => {
    const { client, id } = await newClient(['flash']);
    const ask = () => client.chat.completions.create({ model: 'flash', messages: [{ role: 'user', content: 'What time is it?' }] });
    moveClockTo(2);
    const peak = await ask();
    moveClockTo(12);
    const offPeak = await ask();
    moveClockTo(9, 59);
    const lateMorning = await ask();
    moveClockTo(10);
    const tenSharp = await ask();
    const rows = await spendRows(id, 4);
    const cost = (answer: OpenAI.ChatCompletion, price: typeof FLASH) =>
      billOf({ prompt: answer.usage!.prompt_tokens, cached: 0, completion: answer.usage!.completion_tokens }, price);
    const billed = (answer: OpenAI.ChatCompletion) => nanos(rows.find((r) => r.id === answer.id)!.cost_usd);
    expect(billed(peak)).toBe(cost(peak, PEAK));
    expect(billed(offPeak)).toBe(cost(offPeak, FLASH));
    expect(billed(lateMorning)).toBe(cost(lateMorning, PEAK));
    // A window's end is not in it.
    expect(billed(tenSharp)).toBe(cost(tenSharp, FLASH));
    expect(billed(peak)).toBe(2 * billed(offPeak));
  });
});

const QUESTION = 'Tell me about the gateway in detail.';

/** Opens a stream with fetch and reads `chunks` events before closing the connection. */
async function abandonAfter(key: string, chunks: number, model = 'demo-chat', content = QUESTION): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content }] }),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let seen = 0;
  let text = '';
  while (seen < chunks) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before the caller left');
    text += Buffer.from(value).toString('utf8');
    seen = text.split('\n\n').filter((event) => event.startsWith('data: {')).length;
  }
  controller.abort();
}

describe('streams the caller abandons', () => {
  it('are billed for what they consumed, more than zero and no more than a full read, marked estimated', async () => {
    const { client, id, key } = await newClient(['demo-chat']);
    const full = await client.chat.completions.create({
      model: 'demo-chat',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Tell me about the gateway in detail.' }],
    });
    for await (const _chunk of full) {
      // read to the end
    }
    const [fullRow] = await spendRows(id, 1);
    const fullCost = nanos(fullRow!.cost_usd);
    expect(fullRow!.estimated).toBe(false);

    const metricBefore = await estimatedCallsMetric('demo-chat');
    const logFrom = gateway.logs.length;
    for (let i = 0; i < 10; i += 1) await abandonAfter(key, 2 + (i % 4));
    const rows = (await spendRows(id, 11)).filter((row) => row.id !== fullRow!.id);
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row.estimated).toBe(true);
      expect(nanos(row.cost_usd)).toBeGreaterThan(0);
      expect(nanos(row.cost_usd)).toBeLessThanOrEqual(fullCost);
    }
    await eventually(async () => (await estimatedCallsMetric('demo-chat')) - metricBefore === 10, 5000);
    // The access lines say so too, and the chat service's lines give the figures.
    await eventually(
      () => logLines(logFrom).filter((l) => l.msg === 'request' && l.keyId === id && l.estimated === true).length === 10,
      5000,
    );
    const billedLines = logLines(logFrom).filter((l) => l.msg === 'chat call billed on an estimate');
    expect(billedLines).toHaveLength(10);
    for (const line of billedLines) expect(line).toMatchObject({ reason: 'caller_left', costUsd: expect.any(Number) });
    expect(logLines(logFrom).filter((l) => l.msg === 'upstream stream without usage; billed on an estimate')).toHaveLength(0);
  });

  it('a caller that reads everything but the usage chunk pays about the full call', async () => {
    const { client, id, key } = await newClient(['spaced']);
    // A long English prompt: the simulator's own count (a token per four characters) and the
    // gateway's tokenizer then agree closely, as a vendor's and the gateway's do.
    const content = `${QUESTION} ${PREFIX}`;
    const exact = await client.chat.completions.create({ model: 'spaced', messages: [{ role: 'user', content }] });
    const words = (exact.choices[0]?.message.content ?? '').split(' ').length;
    // The role chunk and every word arrive; the finish and usage chunks wait, and the caller leaves.
    spaced.fail({ usageDelayMs: 500 });
    await abandonAfter(key, 1 + words, 'spaced', content);
    const rows = await spendRows(id, 2);
    const estimated = rows.find((r) => r.estimated)!;
    const exactRow = rows.find((r) => !r.estimated)!;
    const ratio = estimated.cost_usd / exactRow.cost_usd;
    expect(ratio).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1.2);
  });
});

function logLines(from: number): Record<string, unknown>[] {
  return gateway.logs
    .slice(from)
    .flatMap((chunk) => chunk.split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('streams the upstream ends early', () => {
  it('without a usage chunk: billed on the count, marked estimated', async () => {
    const { client, id } = await newClient(['plain']);
    openai.fail({ omitUsage: true });
    const stream = await client.chat.completions.create({ model: 'plain', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    for await (const _chunk of stream) {
      // read to the end
    }
    const [row] = await spendRows(id, 1);
    expect(row!.estimated).toBe(true);
    expect(nanos(row!.cost_usd)).toBeGreaterThan(0);
  });

  it('cut by the upstream: free, as every upstream failure', async () => {
    const { client, id } = await newClient(['spaced']);
    spaced.fail({ cutAfterChunks: 3 });
    const stream = await client.chat.completions.create({ model: 'spaced', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    await expect(async () => {
      for await (const _chunk of stream) {
        // the error event ends it
      }
    }).rejects.toThrow();
    await client.chat.completions.create({ model: 'spaced', messages: [{ role: 'user', content: 'Hi' }] });
    const rows = await spendRows(id, 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await spendRows(id, 1)).toHaveLength(1);
    expect(rows[0]!.estimated).toBe(false);
  });
});

/** About 60 KB of tool definitions with draft 2020-12 schemas, as coding agents send on every call. */
function toolSchemas(): OpenAI.ChatCompletionTool[] {
  return Array.from({ length: 24 }, (_, i) => ({
    type: 'function' as const,
    function: {
      name: `tool_${i}`,
      description: `Tool number ${i}: ${'Runs a command in the workspace and returns its output, truncated when long. '.repeat(24)}`,
      parameters: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        additionalProperties: false,
        required: ['command'],
        properties: {
          command: { type: 'string', description: 'The exact command line to run, with its arguments quoted as a shell would need.' },
          timeout: { type: 'number', exclusiveMinimum: 0, description: 'Seconds to wait before the command is stopped.' },
          workdir: { type: 'string', description: 'The folder to run it in, relative to the workspace root.' },
          env: { type: 'object', additionalProperties: { type: 'string' }, description: 'Extra environment variables.' },
        },
      },
    },
  }));
}

describe('holds', () => {
  it('cover a prompt with 60 KB of tool schemas, and refuse a key whose remaining budget is below the hold before any upstream request', async () => {
    const tools = toolSchemas();
    expect(JSON.stringify(tools).length).toBeGreaterThan(60_000);
    const body = { model: 'plain', tools, max_tokens: 50, messages: [{ role: 'user' as const, content: 'Run the tests.' }] };
    // A key with rate limits holds each call in accounting: its hold shows as reserved while the call runs.
    const { client, id, key } = await newClient(['plain'], { rpm: 1000 });
    openai.fail({ delayMs: 800 });
    const call = client.chat.completions.create(body);
    let held = 0;
    await eventually(async () => {
      const usage = (await (await gateway.call('/v1/usage', key)).json()) as { budget: { reserved_usd: number } };
      held = usage.budget.reserved_usd;
      return held > 0;
    }, 5000);
    const answer = await call;
    // The upstream counted the tools as prompt, as vendors do.
    expect(answer.usage!.prompt_tokens).toBeGreaterThan(10_000);
    const [row] = await spendRows(id, 1);
    const cost = row!.cost_usd;
    expect(cost).toBeGreaterThan(0);
    expect(held).toBeGreaterThanOrEqual(cost);

    // A budget that covers the call's real cost but not its hold: refused, and the upstream never asked.
    const { client: short } = await newClient(['plain'], { rpm: 1000, budget_usd: Number(((cost + held) / 2).toFixed(9)) });
    const before = openai.requests.length;
    const refused = await short.chat.completions.create(body).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(422);
    expect(openai.requests.length).toBe(before);
  });
});
