import Anthropic from '@anthropic-ai/sdk';
import { parseConfig } from '@gateway/config';
import { ChatSimulator, countPromptTokens, expectedCachedTokens } from '@gateway/simulators';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Anthropic's Messages API (POST /v1/messages, /v1/messages/count_tokens) with the official
// @anthropic-ai/sdk against the whole gateway: on the built-in demo provider and on simulators
// speaking OpenAI's and DeepSeek's chat protocols. The same routing, budgets and metering as
// chat; errors in Anthropic's shape and statuses.

const plainSim = new ChatSimulator({
  flavor: 'openai',
  credential: 'oa-credential',
  models: ['gpt-sim', 'gpt-vision'],
  visionModels: ['gpt-vision'],
  record: true,
});
const thinkingSim = new ChatSimulator({ flavor: 'deepseek', credential: 'ds-credential', models: ['deepseek-sim'], record: true });
/** Spaced chunks, so a cut or a caller leaving comes after the stream reached the caller. */
const spacedSim = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'], chunkDelayMs: 30 });

/**
 * An upstream that stops every answer at its output limit (finish_reason `length`), plain and
 * streamed: the chat simulators always finish with `stop` or `tool_calls`.
 */
let lengthRequests: Record<string, unknown>[] = [];
const lengthUpstream: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    lengthRequests.push(body);
    const base = { id: 'upstream-length', created: Math.floor(Date.now() / 1000), model: body.model };
    const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
    if (body.stream !== true) {
      const text = JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Cut off right' }, finish_reason: 'length' }],
        usage,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
    chunk([{ index: 0, delta: { role: 'assistant', content: 'Cut' }, finish_reason: null }]);
    chunk([{ index: 0, delta: { content: ' off right' }, finish_reason: null }]);
    chunk([{ index: 0, delta: {}, finish_reason: 'length' }]);
    chunk([], { usage });
    res.end('data: [DONE]\n\n');
  });
});

function config(oa: string, ds: string, sp: string, len: string): string {
  return `
groups:
  - id: demo-chat
    mode: chat
    max_input_tokens: 262144
    max_output_tokens: 1024
    price: { input_per_mtok: 0.01, output_per_mtok: 0.02 }
    deployments: [{ provider: demo, model: demo-chat }]
  - id: plain
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: 1.5, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${oa}/v1", api_key_env: OA_KEY }]
  - id: vision
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    image_input: true
    price: { input_per_mtok: 1.5, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-vision, api_base: "${oa}/v1", api_key_env: OA_KEY }]
  - id: thinking
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 8192
    reasoning: { default_effort: high }
    price: { input_per_mtok: 0.14, output_per_mtok: 0.28 }
    deployments: [{ provider: deepseek, model: deepseek-sim, api_base: "${ds}", api_key_env: DS_KEY }]
  - id: spaced
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: 1.5, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${sp}/v1", api_key_env: OA_KEY }]
  - id: cut-short
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: 1.5, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-len, api_base: "${len}/v1", api_key_env: OA_KEY }]
router: { retries: 0, allowed_fails: 1000, cooldown_seconds: 1, timeout_ms: 5000 }
server: { key_cache_ttl_ms: 0 }
`;
}

let gateway: TestGateway;
let key: { id: string; key: string };
let client: Anthropic;

const sdk = (secret: string, options: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}) =>
  new Anthropic({ apiKey: secret, baseURL: gateway.url, maxRetries: 0, ...options });

type Body = Record<string, unknown>;
type Message = { role: string; content: unknown; reasoning_content?: unknown; tool_calls?: unknown };

/** The body of the simulator's last request. */
const lastBody = (sim: ChatSimulator) => sim.requests.at(-1)?.body as Body;
const lastMessages = (sim: ChatSimulator) => lastBody(sim).messages as Message[];

interface LogRow {
  id: string;
  cost_usd: number;
  usage: Record<string, number>;
  estimated: boolean;
}

async function spendRows(keyId: string): Promise<LogRow[]> {
  const response = await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${keyId}&limit=1000`);
  return ((await response.json()) as { data: LogRow[] }).data;
}

async function spendRow(keyId: string, id: string): Promise<LogRow> {
  let row: LogRow | undefined;
  await eventually(async () => {
    row = (await spendRows(keyId)).find((r) => r.id === id);
    return row !== undefined;
  }, 5000);
  return row as LogRow;
}

const spentOf = async (keyId: string) =>
  ((await (await gateway.admin('GET', `/admin/v1/keys/${keyId}`)).json()) as { spent_usd: number }).spent_usd;

/** A raw Messages call with the headers an Anthropic client sends. */
function post(path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

interface Frame {
  event: string | undefined;
  data: Record<string, unknown>;
  text: string;
}

/** A streamed call's SSE frames, read raw until the stream ends or `stopAfter` frames came (then the caller leaves). */
async function rawFrames(
  body: Body,
  stopAfter = Number.POSITIVE_INFINITY,
  secret = key.key,
): Promise<{ frames: Frame[]; response: Response }> {
  const controller = new AbortController();
  const response = await post('/v1/messages', { ...body, stream: true }, { 'x-api-key': secret }, controller.signal);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(bytes, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
        const text = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = /^event: (.+)$/m.exec(text)?.[1];
        const data = JSON.parse(/^data: (.+)$/m.exec(text)?.[1] ?? 'null') as Record<string, unknown>;
        frames.push({ event, data, text });
      }
      if (frames.length >= stopAfter) break;
    }
  } finally {
    controller.abort();
  }
  return { frames, response };
}

/** The SDK's error as [status, error.type], with the body's shape checked. */
function refusal(error: unknown): [number, string] | unknown {
  if (!(error instanceof Anthropic.APIError)) return error;
  const body = error.error as { type?: unknown; error?: { type?: unknown; message?: unknown } };
  expect(body.type).toBe('error');
  expect(typeof body.error?.message).toBe('string');
  expect(Object.keys(body).sort()).toEqual(['error', 'type']);
  return [error.status, body.error?.type];
}

/** A large max_tokens asked without streaming: the SDK wants a timeout named for it. */
const LONG = { timeout: 60_000 };

const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const lookupTool: Anthropic.Tool = {
  name: 'lookup',
  description: 'Looks a thing up.',
  input_schema: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'number' } }, required: ['q'] },
};

beforeAll(async () => {
  const [oa, ds, sp] = await Promise.all([plainSim.listen(), thinkingSim.listen(), spacedSim.listen()]);
  await new Promise<void>((resolve) => lengthUpstream.listen(0, '127.0.0.1', resolve));
  const len = `http://127.0.0.1:${(lengthUpstream.address() as AddressInfo).port}`;
  gateway = await startTestGateway({
    config: parseConfig(config(oa as string, ds as string, sp as string, len), 'messages-test'),
    env: { OA_KEY: 'oa-credential', DS_KEY: 'ds-credential' },
  });
  key = await gateway.createKey({ name: 'messages', models: ['*'], budget_usd: 5 });
  client = sdk(key.key);
});
afterAll(async () => {
  if (gateway) await stopTestGateway(gateway);
  lengthUpstream.closeAllConnections();
  await Promise.all([
    plainSim.close(),
    thinkingSim.close(),
    spacedSim.close(),
    new Promise<void>((resolve) => lengthUpstream.close(() => resolve())),
  ]);
});

describe('POST /v1/messages on demo-chat', () => {
  it('answers text as an Anthropic message, with usage and a msg_ id', async () => {
    const message = await client.messages.create({
      model: 'demo-chat',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'demo-chat', stop_reason: 'end_turn', stop_sequence: null });
    expect(message.content).toHaveLength(1);
    const [block] = message.content;
    expect(block?.type).toBe('text');
    expect(block?.type === 'text' && block.text).toContain('Hello there');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(message.usage.cache_read_input_tokens).toBe(0);
    expect(message.usage.cache_creation_input_tokens).toBe(0);
  });

  it('streams every event in order, the SDK accumulating the same message', async () => {
    const stream = client.messages.stream({ model: 'demo-chat', max_tokens: 100, messages: [{ role: 'user', content: 'Hello stream' }] });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    const final = await stream.finalMessage();
    const deltas = types.filter((t) => t === 'content_block_delta').length;
    expect(deltas).toBeGreaterThan(1);
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      ...Array(deltas).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(final.id).toMatch(/^msg_/);
    expect(final.content).toMatchObject([{ type: 'text', text }]);
    expect(final.content).toHaveLength(1);
    expect(text).toContain('Hello stream');
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBeGreaterThan(0);
    expect(final.usage.input_tokens).toBeGreaterThan(0);
  });

  it('writes every frame with its event: line naming the data type, raw', async () => {
    const { frames } = await rawFrames({ model: 'demo-chat', max_tokens: 100, messages: [{ role: 'user', content: 'Raw frames' }] });
    const events = frames.map((f) => f.event).filter((e) => e !== 'ping');
    for (const frame of frames) {
      expect(frame.event, frame.text).toBeDefined();
      expect(frame.data.type, frame.text).toBe(frame.event);
    }
    expect(events[0]).toBe('message_start');
    expect(events.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    const start = frames[0]?.data.message as Record<string, unknown>;
    expect(start).toMatchObject({ type: 'message', role: 'assistant', content: [], stop_reason: null, model: 'demo-chat' });
    const delta = frames.find((f) => f.event === 'message_delta')?.data as { delta: Body; usage: Body };
    expect(delta.delta).toMatchObject({ stop_reason: 'end_turn', stop_sequence: null });
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
  });

  it('stops at max_tokens with stop_reason max_tokens, plain and streamed', async () => {
    const params = { model: 'demo-chat', max_tokens: 3, messages: [{ role: 'user' as const, content: 'Tell me a long story' }] };
    const message = await client.messages.create(params);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(3);
    const final = await client.messages.stream(params).finalMessage();
    expect(final.stop_reason).toBe('max_tokens');
    expect(final.content).toEqual(message.content);
  });

  it('runs a tool loop: tool_use, then an answer quoting the tool_result', async () => {
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather? [demo:call get_weather {"city":"Paris"}]' };
    const tools: Anthropic.Tool[] = [
      {
        name: 'get_weather',
        description: 'The weather in a city.',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];
    const first = await client.messages.create({ model: 'demo-chat', max_tokens: 200, tools, messages: [question] });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block) => block.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error(`no tool_use: ${JSON.stringify(first.content)}`);
    expect(call).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    expect(call.id.length).toBeGreaterThan(0);
    const second = await client.messages.create({
      model: 'demo-chat',
      max_tokens: 200,
      tools,
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21 degrees (result-7f3a).' }] },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content.some((block) => block.type === 'tool_use')).toBe(false);
    const text = second.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(text).toContain('result-7f3a');
  });

  it('streams a tool call as input_json_delta pieces that parse to the arguments', async () => {
    const stream = client.messages.stream({
      model: 'demo-chat',
      max_tokens: 200,
      tools: [lookupTool],
      messages: [{ role: 'user', content: 'Look it up [demo:call lookup {"q":"gateway {braces}","n":3}]' }],
    });
    let args = '';
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') args += event.delta.partial_json;
    }
    const final = await stream.finalMessage();
    expect(JSON.parse(args)).toEqual({ q: 'gateway {braces}', n: 3 });
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.find((block) => block.type === 'tool_use')).toMatchObject({
      name: 'lookup',
      input: { q: 'gateway {braces}', n: 3 },
    });
    expect(types.at(-2)).toBe('message_delta');
    expect(types.at(-1)).toBe('message_stop');
  });

  it('drops server tools it cannot run and names them in x-gateway-dropped, plain and streamed; absent when none was', async () => {
    const tools = [
      { type: 'web_search_20250305', name: 'web_search' },
      { type: 'code_execution_20250522', name: 'code_execution' },
      lookupTool,
    ] as Anthropic.ToolUnion[];
    const { data, response } = await client.messages
      .create({ model: 'demo-chat', max_tokens: 100, tools, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.headers.get('x-gateway-dropped')).toBe('web_search_20250305,code_execution_20250522');
    expect(data.stop_reason).toBe('end_turn');
    const plain = await client.messages
      .create({ model: 'demo-chat', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(plain.response.headers.get('x-gateway-dropped')).toBeNull();
    const streamed = await client.messages
      .create({ model: 'demo-chat', max_tokens: 100, stream: true, tools, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(streamed.response.headers.get('x-gateway-dropped')).toBe('web_search_20250305,code_execution_20250522');
    for await (const _event of streamed.data) {
      // drained
    }
  });
});

describe('POST /v1/messages on vendor protocols', () => {
  it('translates system, messages and a role: system message inside messages', async () => {
    const message = await client.messages.create({
      model: 'plain',
      max_tokens: 50,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Be kind.' },
      ],
      messages: [
        { role: 'user', content: 'My name is Ada.' },
        { role: 'assistant', content: 'Hello Ada.' },
        { role: 'system', content: 'Answer in English.' } as unknown as Anthropic.MessageParam,
        { role: 'user', content: [{ type: 'text', text: 'What is my name?' }] },
      ],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from the simulator, one word at a time.' });
    expect(lastMessages(plainSim)).toEqual([
      { role: 'system', content: 'Be brief.\nBe kind.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Hello Ada.' },
      { role: 'system', content: 'Answer in English.' },
      { role: 'user', content: 'What is my name?' },
    ]);
  });

  it('sends stop_sequences as stop, and max_tokens above the group limit as the limit', async () => {
    await client.messages.create(
      {
        model: 'plain',
        max_tokens: 32_000,
        stop_sequences: ['END', '###'],
        messages: [{ role: 'user', content: 'Stop somewhere' }],
      },
      LONG,
    );
    const sent = lastBody(plainSim);
    expect(sent).toMatchObject({ stop: ['END', '###'], max_completion_tokens: 100 });
    await client.messages.create({ model: 'plain', max_tokens: 40, messages: [{ role: 'user', content: 'Less' }] });
    expect(lastBody(plainSim).max_completion_tokens).toBe(40);
  });

  it('gives stop_reason max_tokens when the upstream stops at its output limit, plain and streamed', async () => {
    lengthRequests = [];
    const message = await client.messages.create({
      model: 'cut-short',
      max_tokens: 3,
      messages: [{ role: 'user', content: 'Go on and on' }],
    });
    expect(message).toMatchObject({ stop_reason: 'max_tokens', stop_sequence: null, content: [{ type: 'text', text: 'Cut off right' }] });
    expect(lengthRequests.at(-1)?.max_completion_tokens).toBe(3);
    const stream = client.messages.stream({ model: 'cut-short', max_tokens: 3, messages: [{ role: 'user', content: 'Go on and on' }] });
    let stop: unknown;
    for await (const event of stream) if (event.type === 'message_delta') stop = event.delta.stop_reason;
    expect(stop).toBe('max_tokens');
    expect((await stream.finalMessage()).stop_reason).toBe('max_tokens');
  });

  it('runs a tool loop on a simulator, the streamed arguments parsing to the call', async () => {
    const question: Anthropic.MessageParam = { role: 'user', content: 'Find it [sim:call lookup {"q":"x","n":2}]' };
    const stream = client.messages.stream({ model: 'plain', max_tokens: 100, tools: [lookupTool], messages: [question] });
    let args = '';
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') args += event.delta.partial_json;
    }
    const first = await stream.finalMessage();
    expect(JSON.parse(args)).toEqual({ q: 'x', n: 2 });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block) => block.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error('no tool_use');
    expect(call).toMatchObject({ name: 'lookup', input: { q: 'x', n: 2 } });
    expect(lastBody(plainSim).tools).toEqual([
      { type: 'function', function: { name: 'lookup', description: 'Looks a thing up.', parameters: lookupTool.input_schema } },
    ]);
    const second = await client.messages.create({
      model: 'plain',
      max_tokens: 100,
      tools: [lookupTool],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: [{ type: 'text', text: 'found (result-91c)' }] }] },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    const sent = lastMessages(plainSim);
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(sent[1]?.tool_calls).toEqual([{ id: call.id, type: 'function', function: { name: 'lookup', arguments: '{"q":"x","n":2}' } }]);
    expect(sent[2]).toMatchObject({ tool_call_id: call.id, content: 'found (result-91c)' });
    const text = second.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(text).toContain('result-91c');
  });

  it('accepts images, base64 and URL, on a group with image_input, and refuses them on one without', async () => {
    const content: Anthropic.ContentBlockParam[] = [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: TINY_PNG } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
    ];
    const message = await client.messages.create({ model: 'vision', max_tokens: 50, messages: [{ role: 'user', content }] });
    expect(message.stop_reason).toBe('end_turn');
    expect(lastMessages(plainSim)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        ],
      },
    ]);
    const before = plainSim.requests.length;
    const refused = await client.messages.create({ model: 'plain', max_tokens: 50, messages: [{ role: 'user', content }] }).catch(refusal);
    expect(refused).toEqual([400, 'invalid_request_error']);
    expect(plainSim.requests.length).toBe(before);
  });

  it('answers a thinking block with a signature on DeepSeek, plain and streamed', async () => {
    const message = await client.messages.create({ model: 'thinking', max_tokens: 1000, messages: [{ role: 'user', content: 'Think' }] });
    expect(lastBody(thinkingSim)).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: 'high' });
    const [thinking, text] = message.content;
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'Thinking it through.' });
    expect(thinking?.type === 'thinking' && thinking.signature).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(text?.type).toBe('text');
    const stream = client.messages.stream({ model: 'thinking', max_tokens: 1000, messages: [{ role: 'user', content: 'Think' }] });
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'content_block_delta') deltas.push(event.delta.type);
    const final = await stream.finalMessage();
    expect(deltas[0]).toBe('thinking_delta');
    expect(deltas).toContain('signature_delta');
    expect(deltas.indexOf('signature_delta')).toBeLessThan(deltas.indexOf('text_delta'));
    expect(final.content[0]).toEqual(thinking);
  });

  it('never sends a thinking block back upstream, signed, foreign, empty or altered, and refuses none', async () => {
    const question: Anthropic.MessageParam = { role: 'user', content: 'Think first' };
    const first = await client.messages.create({ model: 'thinking', max_tokens: 1000, messages: [question] });
    const thinking = first.content.find((block) => block.type === 'thinking');
    if (thinking?.type !== 'thinking') throw new Error('no thinking block');
    const variants: Anthropic.ContentBlockParam[][] = [
      first.content as Anthropic.ContentBlockParam[],
      [
        { type: 'thinking', thinking: 'Made up.', signature: 'Zm9yZWlnbg==' },
        { type: 'text', text: 'Hi.' },
      ],
      [
        { type: 'thinking', thinking: 'Made up.', signature: '' },
        { type: 'text', text: 'Hi.' },
      ],
      [
        { ...thinking, thinking: `${thinking.thinking} Altered.` },
        { type: 'text', text: 'Hi.' },
      ],
      [
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'Hi.' },
      ],
    ];
    for (const content of variants) {
      const next = await client.messages.create({
        model: 'thinking',
        max_tokens: 1000,
        messages: [question, { role: 'assistant', content }, { role: 'user', content: 'And now?' }],
      });
      expect(next.stop_reason).toBe('end_turn');
      const sent = lastMessages(thinkingSim);
      expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(sent.some((m) => 'reasoning_content' in m)).toBe(false);
    }
  });

  it('thinking disabled switches DeepSeek thinking off; budgets and output_config.effort map onto its effort', async () => {
    const ask = (extra: Body) =>
      client.messages.create({ model: 'thinking', max_tokens: 32_000, messages: [{ role: 'user', content: 'Effort?' }], ...extra }, LONG);
    const off = await ask({ thinking: { type: 'disabled' } });
    expect(off.content.some((block) => block.type === 'thinking')).toBe(false);
    expect(lastBody(thinkingSim).thinking).toEqual({ type: 'disabled' });
    expect(lastBody(thinkingSim).reasoning_effort).toBeUndefined();
    for (const [budget, effort] of [
      [2000, 'high'],
      [8000, 'high'],
      [20_000, 'max'],
    ] as const) {
      await ask({ thinking: { type: 'enabled', budget_tokens: budget } });
      expect(lastBody(thinkingSim), `budget ${budget}`).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: effort });
    }
    for (const [asked, effort] of [
      ['low', 'high'],
      ['medium', 'high'],
      ['high', 'high'],
      ['max', 'max'],
    ] as const) {
      await ask({ output_config: { effort: asked } });
      expect(lastBody(thinkingSim), `effort ${asked}`).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: effort });
    }
    // output_config.effort wins over a budget; adaptive leaves the group's default.
    await ask({ thinking: { type: 'enabled', budget_tokens: 2000 }, output_config: { effort: 'max' } });
    expect(lastBody(thinkingSim).reasoning_effort).toBe('max');
    await ask({ thinking: { type: 'adaptive' } });
    expect(lastBody(thinkingSim)).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: 'high' });
    // The max_tokens asked above the group's 8,192 went up as 8,192.
    expect(lastBody(thinkingSim).max_tokens ?? lastBody(thinkingSim).max_completion_tokens).toBe(8192);
  });

  it('reports input_tokens without the prompt read from cache, and cache_read_input_tokens apart', async () => {
    const long = `Cache me ${Date.now()}: ${'the same long prefix, again and again. '.repeat(40)}`;
    const ask = () => client.messages.create({ model: 'thinking', max_tokens: 100, messages: [{ role: 'user', content: long }] });
    const first = await ask();
    const firstSent = lastMessages(thinkingSim);
    const second = await ask();
    const secondSent = lastMessages(thinkingSim);
    const prompt = countPromptTokens(secondSent);
    const cached = expectedCachedTokens([firstSent], secondSent);
    expect(cached).toBeGreaterThan(0);
    expect(first.usage).toMatchObject({ input_tokens: countPromptTokens(firstSent), cache_read_input_tokens: 0 });
    expect(second.usage).toMatchObject({ input_tokens: prompt - cached, cache_read_input_tokens: cached, cache_creation_input_tokens: 0 });
    const row = await spendRow(key.id, second.id);
    expect(row.usage).toMatchObject({ prompt_tokens: prompt, cached_tokens: cached });
    // Streamed, the billed counts come on message_delta.
    const stream = client.messages.stream({ model: 'thinking', max_tokens: 100, messages: [{ role: 'user', content: long }] });
    let usage: Record<string, unknown> = {};
    for await (const event of stream) if (event.type === 'message_delta') usage = event.usage as unknown as Record<string, unknown>;
    expect(usage).toMatchObject({ input_tokens: prompt - cached, cache_read_input_tokens: cached });
    expect((await stream.finalMessage()).usage).toMatchObject({ input_tokens: prompt - cached, cache_read_input_tokens: cached });
  });

  it('costs what the same call costs on /v1/chat/completions, the message id being the spend-log id', async () => {
    const spender = await gateway.createKey({ name: 'same-spend', models: ['plain'], budget_usd: 1 });
    const own = sdk(spender.key);
    const message = await own.messages.create({ model: 'plain', max_tokens: 100, messages: [{ role: 'user', content: 'Price me' }] });
    const chat = await gateway.call('/v1/chat/completions', spender.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'plain', max_completion_tokens: 100, messages: [{ role: 'user', content: 'Price me' }] }),
    });
    expect(chat.status).toBe(200);
    const completion = (await chat.json()) as { id: string };
    const [viaMessages, viaChat] = await Promise.all([spendRow(spender.id, message.id), spendRow(spender.id, completion.id)]);
    expect(viaMessages.cost_usd).toBeGreaterThan(0);
    expect(viaMessages.cost_usd).toBe(viaChat.cost_usd);
    expect(viaMessages.usage).toEqual(viaChat.usage);
    expect(viaMessages.estimated).toBe(false);
    // Streamed, the id message_start names is the row's too.
    const stream = own.messages.stream({ model: 'plain', max_tokens: 100, messages: [{ role: 'user', content: 'Price me' }] });
    const final = await stream.finalMessage();
    const viaStream = await spendRow(spender.id, final.id);
    expect(viaStream.cost_usd).toBe(viaChat.cost_usd);
    expect(viaStream.usage).toEqual(viaChat.usage);
  });
});

describe('POST /v1/messages/count_tokens', () => {
  it('counts a positive whole number that grows with the prompt, and bills nothing', async () => {
    const counter = await gateway.createKey({ name: 'counter', models: ['*'], budget_usd: 1 });
    const own = sdk(counter.key);
    const count = async (params: Omit<Anthropic.MessageCountTokensParams, 'model'>, model = 'demo-chat') =>
      (await own.messages.countTokens({ model, ...params })).input_tokens;
    const short = await count({ messages: [{ role: 'user', content: 'Hello there' }] });
    expect(Number.isInteger(short)).toBe(true);
    expect(short).toBeGreaterThan(0);
    const longer = await count({ messages: [{ role: 'user', content: 'Hello there, '.repeat(200) }] });
    expect(longer).toBeGreaterThan(short);
    const withSystem = await count({
      system: 'You are a careful assistant. '.repeat(20),
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    expect(withSystem).toBeGreaterThan(short);
    const withTools = await count({ tools: [lookupTool], messages: [{ role: 'user', content: 'Hello there' }] });
    expect(withTools).toBeGreaterThan(short);
    const before = thinkingSim.requests.length;
    expect(await count({ messages: [{ role: 'user', content: 'Hello there' }] }, 'thinking')).toBeGreaterThan(0);
    expect(thinkingSim.requests.length).toBe(before);
    // Nothing billed, nothing logged.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await spendRows(counter.id)).toEqual([]);
    expect(await spentOf(counter.id)).toBe(0);
  });

  it('counts for a key whose budget is spent, and refuses a bad body in Anthropic shape', async () => {
    const broke = sdk((await gateway.createKey({ name: 'broke-counter', models: ['*'], budget_usd: 0 })).key);
    const counted = await broke.messages.countTokens({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const refused = await client.messages.countTokens({ model: 'demo-chat', messages: [] }).catch(refusal);
    expect(refused).toEqual([400, 'invalid_request_error']);
    const unknown = await client.messages
      .countTokens({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] })
      .catch(refusal);
    expect(unknown).toEqual([404, 'not_found_error']);
  });
});

describe('GET /v1/models', () => {
  it("answers in Anthropic's shape with anthropic-version, in OpenAI's without", async () => {
    const page = await client.models.list();
    const ids = page.data.map((model) => model.id);
    expect(ids).toEqual(['cut-short', 'demo-chat', 'plain', 'spaced', 'thinking', 'vision']);
    for (const model of page.data) {
      expect(model).toMatchObject({ type: 'model', display_name: model.id });
      expect(Number.isNaN(Date.parse(model.created_at))).toBe(false);
    }
    const raw = (await (await gateway.call('/v1/models', key.key, { headers: { 'anthropic-version': '2023-06-01' } })).json()) as Body;
    expect(raw).toMatchObject({ has_more: false, first_id: 'cut-short', last_id: 'vision' });
    expect(raw.object).toBeUndefined();
    const one = await client.models.retrieve('plain');
    expect(one).toMatchObject({ type: 'model', id: 'plain' });
    const openai = (await (await gateway.call('/v1/models', key.key)).json()) as { object: string; data: Body[] };
    expect(openai.object).toBe('list');
    expect(openai.data.map((model) => model.id)).toEqual(ids);
    expect(openai.data[0]).toMatchObject({ object: 'model' });
    // Anthropic's error shape for the model list asked in its dialect.
    const missing = await client.models.retrieve('no-such-model').catch(refusal);
    expect(missing).toEqual([404, 'not_found_error']);
  });
});

describe('refusals in Anthropic shape', () => {
  it('budget exceeded: 402 billing_error, nothing sent upstream', async () => {
    const broke = sdk((await gateway.createKey({ name: 'broke', models: ['*'], budget_usd: 0 })).key);
    const before = plainSim.requests.length;
    expect(
      await broke.messages.create({ model: 'plain', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch(refusal),
    ).toEqual([402, 'billing_error']);
    expect(
      await broke.messages
        .create({ model: 'plain', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] })
        .catch(refusal),
    ).toEqual([402, 'billing_error']);
    expect(plainSim.requests.length).toBe(before);
  });

  it('rate limit: 429 rate_limit_error with retry-after', async () => {
    const slow = sdk((await gateway.createKey({ name: 'slow', models: ['*'], rpm: 1 })).key);
    await slow.messages.create({ model: 'demo-chat', max_tokens: 10, messages: [{ role: 'user', content: 'one' }] });
    const error = await slow.messages
      .create({ model: 'demo-chat', max_tokens: 10, messages: [{ role: 'user', content: 'two' }] })
      .catch((e: unknown) => e);
    expect(refusal(error)).toEqual([429, 'rate_limit_error']);
    const retryAfter = Number((error as InstanceType<typeof Anthropic.APIError>).headers?.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('unknown model 404 not_found_error, model not allowed 403 permission_error', async () => {
    expect(
      await client.messages.create({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch(refusal),
    ).toEqual([404, 'not_found_error']);
    const narrow = sdk((await gateway.createKey({ name: 'narrow', models: ['plain'] })).key);
    expect(
      await narrow.messages.create({ model: 'demo-chat', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch(refusal),
    ).toEqual([403, 'permission_error']);
  });

  it('authentication: a bad key, no key, and x-api-key with a bearer naming another key are 401; the same key twice passes', async () => {
    const params = { model: 'demo-chat', max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
    expect(await sdk('sk-not-a-real-key-000000000000').messages.create(params).catch(refusal)).toEqual([401, 'authentication_error']);
    const other = await gateway.createKey({ name: 'other', models: ['*'] });
    // x-api-key names one key, the bearer another (both real): neither is taken.
    const both = await post('/v1/messages', params, { authorization: `Bearer ${other.key}` });
    expect(both.status).toBe(401);
    expect(await both.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const mismatch = await post('/v1/messages', params, { authorization: 'Bearer sk-different-000000000000' });
    expect(mismatch.status).toBe(401);
    expect(await mismatch.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const none = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(params),
    });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    // The same key both ways, and a bearer alone, are fine.
    expect((await post('/v1/messages', params, { authorization: `Bearer ${key.key}` })).status).toBe(200);
    const bearer = sdk('', { apiKey: null, authToken: key.key });
    expect((await bearer.messages.create(params)).type).toBe('message');
  });

  it('invalid input: 400 invalid_request_error, never forwarded', async () => {
    const before = plainSim.requests.length;
    const bad: Body[] = [
      { model: 'plain', messages: [{ role: 'user', content: 'no max_tokens' }] },
      { model: 'plain', max_tokens: 0, messages: [{ role: 'user', content: 'x' }] },
      { model: 'plain', max_tokens: 10, messages: [] },
      { model: 'plain', max_tokens: 10, messages: [{ role: 'wizard', content: 'x' }] },
      { model: 'plain', max_tokens: 10, temperature: 1.5, messages: [{ role: 'user', content: 'x' }] },
      {
        model: 'plain',
        max_tokens: 10,
        messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', data: 'x' } }] }],
      },
      { model: 'plain', max_tokens: 10, messages: [{ role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] }] },
      { model: 'plain', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] },
      { model: 'plain', max_tokens: 10, thinking: { type: 'enabled', budget_tokens: 0 }, messages: [{ role: 'user', content: 'x' }] },
      { model: 'plain', max_tokens: 10, tool_choice: { type: 'sometimes' }, messages: [{ role: 'user', content: 'x' }] },
    ];
    for (const body of bad) {
      for (const stream of [false, true]) {
        const response = await post('/v1/messages', { ...body, stream });
        const text = await response.text();
        expect(response.status, `${JSON.stringify(body)}: ${text}`).toBe(400);
        expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
      }
    }
    const json = await post('/v1/messages', '{', {});
    expect(json.status).toBe(400);
    const malformed = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.key },
      body: '{"model":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(plainSim.requests.length).toBe(before);
  });
});

describe('streams that do not end well', () => {
  it('ends with an Anthropic error event when the upstream fails after the stream started', async () => {
    spacedSim.fail({ cutAfterChunks: 3 });
    const { frames } = await rawFrames({ model: 'spaced', max_tokens: 100, messages: [{ role: 'user', content: 'cut me off' }] });
    const last = frames.at(-1);
    expect(last?.event).toBe('error');
    expect(last?.data).toMatchObject({ type: 'error', error: { type: expect.stringMatching(/_error$/), message: expect.any(String) } });
    expect(Object.keys(last?.data ?? {}).sort()).toEqual(['error', 'type']);
    expect(frames[0]?.event).toBe('message_start');
    expect(frames.some((f) => f.event === 'content_block_delta')).toBe(true);
    expect(frames.some((f) => f.event === 'message_stop')).toBe(false);
    // The SDK raises it as an error.
    spacedSim.fail({ cutAfterChunks: 3 });
    const stream = client.messages.stream({ model: 'spaced', max_tokens: 100, messages: [{ role: 'user', content: 'cut me off' }] });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Error);
  });

  it('bills a stream its caller abandons for what it consumed, marked estimated', async () => {
    const spender = await gateway.createKey({ name: 'leaver', models: ['spaced'], budget_usd: 1 });
    const { frames } = await rawFrames(
      { model: 'spaced', max_tokens: 100, messages: [{ role: 'user', content: 'I will leave early' }] },
      4,
      spender.key,
    );
    const id = (frames[0]?.data.message as { id?: string } | undefined)?.id ?? '';
    expect(id).toMatch(/^msg_/);
    const row = await spendRow(spender.id, id);
    expect(row.cost_usd).toBeGreaterThan(0);
    expect(row.estimated).toBe(true);
  });
});
