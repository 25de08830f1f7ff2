import { ChatClient } from '@gateway/contracts';
import { ChatSimulator } from '@gateway/simulators';
import { parseConfig } from '@gateway/config';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Chat completions end to end: the official openai SDK against the whole gateway, with strict
// upstream simulators that refuse what real vendors refuse.

const deepseek = new ChatSimulator({
  flavor: 'deepseek',
  credential: 'ds-credential',
  models: ['deepseek-v4-flash', 'deepseek-v4-pro'],
  visionModels: ['deepseek-v4-flash'],
});
const plainA = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'] });
const plainB = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'] });
const lonely = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'] });
const slow = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'], chunkDelayMs: 200 });
const sims = [deepseek, plainA, plainB, lonely, slow];

let gateway: TestGateway;
let client: OpenAI;
let key: string;
let keyId: string;

function config(urls: string[]): string {
  const [ds, a, b, l, s] = urls;
  return `
groups:
  - id: gamma-flash
    mode: chat
    aliases: [flash]
    max_input_tokens: 131072
    max_output_tokens: 8192
    image_input: true
    reasoning: { default_effort: high }
    price: { input_per_mtok: 0.14, output_per_mtok: 0.28 }
    deployments: [{ provider: deepseek, model: deepseek-v4-flash, api_base: "${ds}", api_key_env: DS_KEY }]
  - id: gamma-v4-pro
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 32768
    reasoning: { default_effort: high }
    price: { input_per_mtok: 0.55, output_per_mtok: 2.19 }
    deployments: [{ provider: deepseek, model: deepseek-v4-pro, api_base: "${ds}", api_key_env: DS_KEY }]
  - id: plain
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 2 }
    deployments:
      - { provider: openai, model: gpt-sim, api_base: "${a}/v1", api_key_env: OA_KEY }
      - { provider: openai, model: gpt-sim, api_base: "${b}/v1", api_key_env: OA_KEY }
  - id: lonely
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    fallbacks: [plain]
    price: { input_per_mtok: 3, output_per_mtok: 4 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${l}/v1", api_key_env: OA_KEY }]
  - id: solo
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 3, output_per_mtok: 4 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${l}/v1", api_key_env: OA_KEY, timeout_ms: 300 }]
  - id: slow
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${s}/v1", api_key_env: OA_KEY }]
  - id: unserved
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${a}/v1", api_key_env: NOT_SET_KEY }]
router: { retries: 1, allowed_fails: 1000, cooldown_seconds: 60, timeout_ms: 5000 }
server: { key_cache_ttl_ms: 0 }
`;
}

beforeAll(async () => {
  const urls = await Promise.all(sims.map((s) => s.listen()));
  gateway = await startTestGateway({
    config: parseConfig(config(urls), 'chat-test'),
    env: { DS_KEY: 'ds-credential', OA_KEY: 'oa-credential' },
  });
  ({ key, id: keyId } = await gateway.createKey({
    models: ['gamma-flash', 'gamma-v4-pro', 'plain', 'lonely', 'solo', 'slow', 'unserved'],
    budget_usd: 100,
  }));
  client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await Promise.all(sims.map((s) => s.close()));
});
beforeEach(() => {
  for (const sim of sims) sim.requests.length = 0;
});

const user = (content: string) => [{ role: 'user' as const, content }];
const last = (sim: ChatSimulator) => sim.requests[sim.requests.length - 1]?.body ?? {};

async function spentUsd(): Promise<number> {
  const usage = (await (await gateway.call('/v1/usage', key)).json()) as { budget: { spent_usd: number } };
  return usage.budget.spent_usd;
}

describe('plain calls', () => {
  it('echo the model exactly as sent, by id or alias, and never name the provider', async () => {
    for (const model of ['gamma-flash', 'flash']) {
      const { data, response } = await client.chat.completions.create({ model, messages: user('Hi there') }).withResponse();
      expect(data.model).toBe(model);
      expect(data.id).toMatch(/^chatcmpl-/);
      expect(data.object).toBe('chat.completion');
      expect(data.choices[0]?.message.content).toBe('Hello from the simulator, one word at a time.');
      expect(data.choices[0]?.finish_reason).toBe('stop');
      const raw = JSON.stringify(data) + JSON.stringify([...response.headers]);
      for (const word of ['deepseek', 'upstream-', 'fp_upstream', 'ds-credential']) expect(raw.toLowerCase()).not.toContain(word);
    }
  });

  it('drop parameters the upstream does not understand instead of failing', async () => {
    const body = {
      model: 'gamma-flash',
      messages: user('Hi'),
      temperature: 0.5,
      user: 'u-1',
      seed: 7,
      n: 1,
      logit_bias: {},
      foo: 'bar',
      max_completion_tokens: 50,
    } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
    await client.chat.completions.create(body);
    const sent = last(deepseek);
    expect(sent).toMatchObject({ model: 'deepseek-v4-flash', temperature: 0.5, max_tokens: 50 });
    for (const dropped of ['user', 'seed', 'n', 'logit_bias', 'foo', 'max_completion_tokens', 'stream', 'stream_options'])
      expect(sent).not.toHaveProperty(dropped);
  });

  it("translate reasoning effort to DeepSeek's thinking controls, sending the switch every time", async () => {
    const cases: [string | undefined, unknown, unknown][] = [
      [undefined, { type: 'enabled' }, 'high'],
      ['none', { type: 'disabled' }, undefined],
      ['low', { type: 'enabled' }, 'high'],
      ['high', { type: 'enabled' }, 'high'],
      ['max', { type: 'enabled' }, 'max'],
      // OpenAI's own values, as generic clients send them.
      ['minimal', { type: 'enabled' }, 'high'],
      ['medium', { type: 'enabled' }, 'high'],
    ];
    for (const [effort, thinking, upstreamEffort] of cases) {
      const body = {
        model: 'gamma-v4-pro',
        messages: user('Think'),
        ...(effort ? { reasoning_effort: effort } : {}),
      } as OpenAI.ChatCompletionCreateParamsNonStreaming;
      const result = await client.chat.completions.create(body);
      const sent = last(deepseek);
      expect(sent.thinking, String(effort)).toEqual(thinking);
      expect(sent.reasoning_effort, String(effort)).toBe(upstreamEffort);
      const message = result.choices[0]?.message as unknown as { reasoning_content?: string };
      expect(message.reasoning_content).toBe(effort === 'none' ? undefined : 'Thinking it through.');
      expect(result.usage?.completion_tokens_details?.reasoning_tokens).toBe(effort === 'none' ? 0 : 7);
    }
  });

  it('send earlier assistant turns without their reasoning trace, and developer messages as system', async () => {
    await client.chat.completions.create({
      model: 'flash',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Q1' },
        { role: 'assistant', content: 'A1', reasoning_content: 'old trace' } as unknown as OpenAI.ChatCompletionAssistantMessageParam,
        { role: 'user', content: 'Q2' },
      ],
    });
    const messages = last(deepseek).messages as Record<string, unknown>[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[2]).toEqual({ role: 'assistant', content: 'A1' });
  });

  it('accept images on groups with image input and meter them', async () => {
    const result = await client.chat.completions.create({
      model: 'gamma-flash',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    expect(result.usage?.prompt_tokens).toBeGreaterThan(85);
  });

  it('drop reasoning_effort on groups without reasoning, as any parameter their upstream does not take', async () => {
    await client.chat.completions.create({
      model: 'plain',
      messages: user('Hi'),
      reasoning_effort: 'high',
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const sent = [...plainA.requests, ...plainB.requests].map((r) => r.body);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty('reasoning_effort');
  });
});

describe('validation', () => {
  const expect422 = async (body: Record<string, unknown>, param: string) => {
    const error = await client.chat.completions
      .create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(error, JSON.stringify(body)).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((error as InstanceType<typeof OpenAI.APIError>).param, JSON.stringify(body)).toBe(param);
    expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe('invalid_request_error');
  };

  it('answers 422 naming the parameter, and nothing reaches the upstream', async () => {
    await expect422({ messages: user('x') }, 'model');
    await expect422({ model: 'flash', messages: [] }, 'messages');
    await expect422({ model: 'flash' }, 'messages');
    await expect422({ model: 'flash', messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0].role');
    await expect422({ model: 'flash', messages: [{ role: 'user', content: 42 }] }, 'messages[0].content');
    await expect422({ model: 'flash', messages: user('x'), temperature: 2.5 }, 'temperature');
    await expect422({ model: 'flash', messages: user('x'), temperature: -0.1 }, 'temperature');
    await expect422({ model: 'flash', messages: user('x'), max_tokens: 0 }, 'max_tokens');
    await expect422({ model: 'flash', messages: user('x'), max_tokens: 1.5 }, 'max_tokens');
    await expect422({ model: 'flash', messages: user('x'), max_tokens: 8193 }, 'max_tokens');
    await expect422({ model: 'flash', messages: user('x'), max_completion_tokens: 9000 }, 'max_completion_tokens');
    await expect422({ model: 'flash', messages: user('x'), reasoning_effort: 'extreme' }, 'reasoning_effort');
    await expect422(
      {
        model: 'gamma-v4-pro',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }],
      },
      'messages[0].content[0]',
    );
    await expect422(
      { model: 'flash', messages: [{ role: 'user', content: [{ type: 'audio', data: 'x' }] }] },
      'messages[0].content[0].type',
    );
    expect(deepseek.requests).toHaveLength(0);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const response = await gateway.call('/v1/chat/completions', key, {
      method: 'POST',
      body: '{"model":',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });

  it('answers 401 for an unknown group, an unserved one, or one the key lacks', async () => {
    const { key: narrow } = await gateway.createKey({ models: ['plain'] });
    const narrowClient = new OpenAI({ apiKey: narrow, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    for (const [c, model] of [
      [client, 'no-such-group'],
      [client, 'unserved'],
      [narrowClient, 'flash'],
    ] as const) {
      const error = await c.chat.completions.create({ model, messages: user('x') }).catch((e: unknown) => e);
      expect(error, model).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe('auth_error');
    }
  });
});

describe('streams', () => {
  it('relay every chunk with the requested model and one id, ending with [DONE], without usage unless asked', async () => {
    const stream = await client.chat.completions.create({ model: 'flash', messages: user('Stream please'), stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(5);
    expect(new Set(chunks.map((c) => c.model))).toEqual(new Set(['flash']));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0]?.id).toMatch(/^chatcmpl-/);
    expect(chunks.every((c) => !('usage' in c) && !('system_fingerprint' in c))).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello from the simulator, one word at a time.');
    expect(
      chunks.some((c) => (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content === 'Thinking it through.'),
    ).toBe(true);
    // The gateway always asked the upstream for usage.
    expect(last(deepseek).stream_options).toEqual({ include_usage: true });
  });

  it('forward the usage chunk when the caller asks for it', async () => {
    const stream = await client.chat.completions.create({
      model: 'flash',
      messages: user('Stream please'),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const final = chunks[chunks.length - 1];
    expect(final?.choices).toEqual([]);
    expect(final?.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: 16,
      completion_tokens_details: { reasoning_tokens: 7 },
    });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('carry the SSE headers proxies need', async () => {
    const response = await gateway.call('/v1/chat/completions', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'plain', messages: user('x'), stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const text = await response.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(
      text
        .split('\n\n')
        .filter(Boolean)
        .every((event) => event.startsWith('data: ')),
    ).toBe(true);
  });

  it('end with an error event the SDK raises when the upstream stream is cut mid-way, and bill nothing', async () => {
    const before = await spentUsd();
    slow.fail({ cutAfterChunks: 3 });
    const stream = await client.chat.completions.create({ model: 'slow', messages: user('x'), stream: true });
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(received.length).toBe(3);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(String((error as Error).message)).toContain('upstream');
    expect(await spentUsd()).toBe(before);
  });

  it('turn a failure before the first chunk into an HTTP status', async () => {
    lonely.fail({ status: 500 }, { status: 500 });
    const error = await client.chat.completions.create({ model: 'solo', messages: user('x'), stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });

  it('abort the upstream request when the caller goes away', async () => {
    const abortedBefore = slow.aborted;
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'slow', messages: user('x'), stream: true },
      { signal: controller.signal },
    );
    await (async () => {
      for await (const _chunk of stream) controller.abort();
    })().catch(() => undefined);
    await eventually(() => slow.aborted === abortedBefore + 1, 3000);
  });
});

describe('upstream failures', () => {
  it('retry a retryable failure on another deployment of the group', async () => {
    // A fails once; the call that tries A first is retried on B. Weights are equal, so within
    // twenty calls A is tried first at least once (all but certainly).
    plainA.fail({ status: 500 });
    for (let i = 0; i < 20; i += 1) {
      const result = await client.chat.completions.create({ model: 'plain', messages: user('x') });
      expect(result.model).toBe('plain');
    }
    expect(plainA.requests.length + plainB.requests.length).toBe(21);
    expect(plainA.requests.length).toBeGreaterThan(0);
    expect(plainB.requests.length).toBeGreaterThan(0);
  });

  it('map upstream 429 to 429 with Retry-After, 5xx to 502 and a timeout to 504', async () => {
    // The upstream's pause is honoured: the deployment is not asked again (not even by the retry) until it ends.
    lonely.fail({ status: 429, retryAfter: 1 });
    const limited = await client.chat.completions.create({ model: 'solo', messages: user('x') }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1100));

    lonely.fail({ status: 503 }, { status: 503 });
    const broken = await client.chat.completions.create({ model: 'solo', messages: user('x') }).catch((e: unknown) => e);
    expect((broken as InstanceType<typeof OpenAI.APIError>).status).toBe(502);

    lonely.fail({ delayMs: 1000 }, { delayMs: 1000 });
    const started = Date.now();
    const late = await client.chat.completions.create({ model: 'solo', messages: user('x') }).catch((e: unknown) => e);
    expect((late as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("fall back to another group after the group's own attempts, still echoing the requested model", async () => {
    lonely.fail({ status: 500 }, { status: 500 });
    const result = await client.chat.completions.create({ model: 'lonely', messages: user('x') });
    expect(result.model).toBe('lonely');
    expect(lonely.requests).toHaveLength(2);
    expect(plainA.requests.length + plainB.requests.length).toBe(1);
  });

  it('pass a request the upstream refuses back as 400 with its reason', async () => {
    // The gateway checks logit_bias's shape; which token ids exist only the upstream knows.
    const error = await client.chat.completions
      .create({ model: 'plain', messages: user('x'), logit_bias: { '999999': 5 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("Invalid key in 'logit_bias': 999999 is not a valid token ID");
    // Not retried: another deployment would refuse it alike.
    expect(plainA.requests.length + plainB.requests.length).toBe(1);
  });
});

describe('metering', () => {
  it('grows spend by exactly the priced usage, for plain and streamed calls', async () => {
    const before = await spentUsd();
    const plain = await client.chat.completions.create({ model: 'gamma-v4-pro', messages: user('Count these tokens precisely please') });
    const stream = await client.chat.completions.create({ model: 'gamma-v4-pro', messages: user('And these too'), stream: true });
    for await (const _chunk of stream) {
      /* drain */
    }
    const streamed = deepseek.totals;
    const plainCost = (plain.usage?.prompt_tokens ?? 0) * 550 + (plain.usage?.completion_tokens ?? 0) * 2190;
    // The streamed call's usage is what the simulator reported for its last call.
    const streamPrompt = Math.ceil('And these too'.length / 4);
    const streamCost = streamPrompt * 550 + 16 * 2190;
    expect(streamed.calls).toBeGreaterThan(0);
    await eventually(async () => Math.round((await spentUsd()) * 1e9) === Math.round(before * 1e9) + plainCost + streamCost);
    const usage = (await (await gateway.call('/v1/usage', key)).json()) as { by_model: { model: string; requests: number }[] };
    expect(usage.by_model.find((m) => m.model === 'gamma-v4-pro')?.requests).toBeGreaterThanOrEqual(2);
    expect(keyId).toMatch(/^key_/);
  });

  it('bills a call the edge sends again (after a dropped connection) once: the edge chooses the completion id', async () => {
    const chat = new ChatClient(gateway.chat.address);
    try {
      const before = await spentUsd();
      const call = {
        completionId: 'chatcmpl-repeated0000001',
        keyId,
        model: 'gamma-v4-pro',
        group: 'gamma-v4-pro',
        body: Buffer.from(JSON.stringify({ model: 'gamma-v4-pro', messages: user('Once only') })),
      };
      const first = JSON.parse((await chat.createChatCompletion(call)).body.toString()) as {
        id: string;
        usage: { prompt_tokens: number; completion_tokens: number };
      };
      const again = JSON.parse((await chat.createChatCompletion(call)).body.toString()) as { id: string };
      expect([first.id, again.id]).toEqual(['chatcmpl-repeated0000001', 'chatcmpl-repeated0000001']);
      const cost = first.usage.prompt_tokens * 550 + first.usage.completion_tokens * 2190;
      await eventually(async () => Math.round((await spentUsd()) * 1e9) === Math.round(before * 1e9) + cost);
      await new Promise((r) => setTimeout(r, 200));
      expect(Math.round((await spentUsd()) * 1e9)).toBe(Math.round(before * 1e9) + cost);
      await expect(chat.createChatCompletion({ ...call, completionId: 'not-an-id' })).rejects.toMatchObject({
        code: 'invalid_request',
        param: 'completion_id',
      });
    } finally {
      chat.close();
    }
  });
});
