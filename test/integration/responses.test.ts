import { parseConfig } from '@gateway/config';
import { ChatSimulator } from '@gateway/simulators';
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The Responses API (POST /v1/responses) with the official openai SDK against the whole
// gateway: on the built-in demo provider and on simulators speaking OpenAI's and DeepSeek's chat
// protocols. The same routing, budgets and metering as chat; stored responses per key.

const plainSim = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'], record: true });
const thinkingSim = new ChatSimulator({ flavor: 'deepseek', credential: 'ds-credential', models: ['deepseek-sim'], record: true });
/** Spaced chunks, so a cut or a caller leaving comes after the stream reached the caller. */
const spacedSim = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'], chunkDelayMs: 30 });

function config(oa: string, ds: string, sp: string): string {
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
router: { retries: 0, allowed_fails: 1000, cooldown_seconds: 1, timeout_ms: 5000 }
server: { key_cache_ttl_ms: 0 }
`;
}

let gateway: TestGateway;
let key: { id: string; key: string };
let client: OpenAI;

const sdk = (secret: string) => new OpenAI({ apiKey: secret, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

/** The body of the simulator's last request. */
const lastBody = (sim: ChatSimulator) => sim.requests.at(-1)?.body as Record<string, unknown>;

interface LogRow {
  id: string;
  cost_usd: number;
  usage: Record<string, number>;
}

async function spendRow(keyId: string, id: string): Promise<LogRow> {
  let row: LogRow | undefined;
  await eventually(async () => {
    const logs = (await (await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${keyId}`)).json()) as { data: LogRow[] };
    row = logs.data.find((r) => r.id === id);
    return row !== undefined;
  }, 5000);
  return row as LogRow;
}

beforeAll(async () => {
  const [oa, ds, sp] = await Promise.all([plainSim.listen(), thinkingSim.listen(), spacedSim.listen()]);
  gateway = await startTestGateway({
    config: parseConfig(config(oa as string, ds as string, sp as string), 'responses-test'),
    env: { OA_KEY: 'oa-credential', DS_KEY: 'ds-credential' },
  });
  key = await gateway.createKey({ name: 'responses', models: ['*'], budget_usd: 5 });
  client = sdk(key.key);
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await Promise.all([plainSim.close(), thinkingSim.close(), spacedSim.close()]);
});

describe('POST /v1/responses on demo-chat', () => {
  it('answers text in the Responses shape, with usage and ids', async () => {
    const response = await client.responses.create({ model: 'demo-chat', input: 'Hello there', metadata: { team: 'a' } });
    expect(response.id).toMatch(/^resp_[A-Za-z0-9]{8,64}$/);
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: 'demo-chat', metadata: { team: 'a' }, store: true });
    expect(response.output_text).toContain('Hello there');
    const [message] = response.output;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(message?.id).toMatch(/^msg_/);
    const usage = response.usage;
    expect(usage?.input_tokens).toBeGreaterThan(0);
    expect(usage?.output_tokens).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBe((usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0));
    expect(usage?.input_tokens_details.cached_tokens).toBe(0);
    expect(usage?.output_tokens_details.reasoning_tokens).toBe(0);
  });

  it('streams every event in order, numbered, ending with the stored response', async () => {
    const stream = client.responses.stream({ model: 'demo-chat', input: 'Hello stream' });
    const types: string[] = [];
    const numbers: number[] = [];
    for await (const event of stream) {
      types.push(event.type);
      numbers.push(event.sequence_number);
    }
    const final = await stream.finalResponse();
    const deltas = types.filter((t) => t === 'response.output_text.delta').length;
    expect(deltas).toBeGreaterThan(1);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array(deltas).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(numbers).toEqual(types.map((_, i) => i));
    expect(final.output_text).toContain('Hello stream');
    expect(final.usage?.output_tokens).toBeGreaterThan(0);
    const stored = await client.responses.retrieve(final.id);
    expect(stored.output_text).toBe(final.output_text);
    expect(stored.usage).toEqual(final.usage);
  });

  it('runs a function tool loop: the call, then an answer quoting the tool result', async () => {
    const tools: OpenAI.Responses.Tool[] = [
      {
        type: 'function',
        name: 'get_weather',
        description: 'The weather in a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
        strict: true,
      },
    ];
    const first = await client.responses.create({ model: 'demo-chat', tools, input: 'Weather? [demo:call get_weather {"city":"Paris"}]' });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}' });
    if (call?.type !== 'function_call') throw new Error('no function call');
    expect(call.id).toMatch(/^fc_/);
    const second = await client.responses.create({
      model: 'demo-chat',
      tools,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21 degrees (result-7f3a).' }],
    });
    expect(second.output_text).toContain('result-7f3a');
    expect(second.output.some((item) => item.type === 'function_call')).toBe(false);
  });

  it('streams a tool call as function_call_arguments events that add up to the arguments', async () => {
    const stream = client.responses.stream({
      model: 'demo-chat',
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false }],
      input: 'Look it up [demo:call lookup {"q":"gateway {braces}","n":3}]',
    });
    let args = '';
    for await (const event of stream) if (event.type === 'response.function_call_arguments.delta') args += event.delta;
    const final = await stream.finalResponse();
    expect(args).toBe('{"q":"gateway {braces}","n":3}');
    expect(final.output.find((item) => item.type === 'function_call')).toMatchObject({ name: 'lookup', arguments: args });
  });

  it('drops hosted tools it cannot run and names them in x-gateway-dropped; absent when nothing was dropped', async () => {
    const { data, response } = await client.responses
      .create({ model: 'demo-chat', input: 'hi', tools: [{ type: 'web_search' }, { type: 'file_search', vector_store_ids: ['vs_1'] }] })
      .withResponse();
    expect(response.headers.get('x-gateway-dropped')).toBe('web_search,file_search');
    expect(data.tools).toEqual([]);
    const plain = await client.responses.create({ model: 'demo-chat', input: 'hi' }).withResponse();
    expect(plain.response.headers.get('x-gateway-dropped')).toBeNull();
    const streamed = await client.responses
      .create({ model: 'demo-chat', input: 'hi', stream: true, tools: [{ type: 'web_search' }] })
      .withResponse();
    expect(streamed.response.headers.get('x-gateway-dropped')).toBe('web_search');
    for await (const _event of streamed.data) {
      // drained
    }
  });
});

describe('POST /v1/responses on vendor protocols', () => {
  it('continues a conversation with previous_response_id: the earlier turns go upstream', async () => {
    const first = await client.responses.create({ model: 'plain', instructions: 'Be brief.', input: 'My name is Ada.' });
    const second = await client.responses.create({ model: 'plain', previous_response_id: first.id, input: 'What is my name?' });
    expect(second.previous_response_id).toBe(first.id);
    const messages = lastBody(plainSim).messages as { role: string; content: unknown }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]?.content).toBe('My name is Ada.');
    expect(messages[1]?.content).toBe(first.output_text);
    expect(messages[2]?.content).toBe('What is my name?');
    const items = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(items.data.map((item) => item.type)).toEqual(['message', 'message', 'message']);
    const page = await client.responses.inputItems.list(second.id, { limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.has_more).toBe(true);
  });

  it('asks for JSON schema output as chat response_format', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
    await client.responses.create({
      model: 'plain',
      input: 'Answer in JSON',
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
      max_output_tokens: 50,
      temperature: 0.2,
    });
    expect(lastBody(plainSim)).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
      max_completion_tokens: 50,
      temperature: 0.2,
    });
  });

  it('gives reasoning as a reasoning item with its usage; xhigh asks for max', async () => {
    const response = await client.responses.create({
      model: 'thinking',
      input: 'Think about it',
      reasoning: { effort: 'xhigh', summary: 'auto' },
    });
    expect(lastBody(thinkingSim)).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: 'max' });
    const [reasoning, message] = response.output;
    expect(reasoning?.type).toBe('reasoning');
    expect(reasoning?.id).toMatch(/^rs_/);
    if (reasoning?.type !== 'reasoning') throw new Error('no reasoning');
    expect(reasoning.summary[0]?.text.length).toBeGreaterThan(0);
    expect(message?.type).toBe('message');
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(7);
  });

  it('streams reasoning, then text, then a tool call from DeepSeek as their own events', async () => {
    const stream = client.responses.stream({
      model: 'thinking',
      input: 'Think, then call [sim:call lookup {"q":"x"}]',
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false }],
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    const first = (type: string) => types.indexOf(type);
    expect(first('response.reasoning_summary_text.delta')).toBeGreaterThan(-1);
    expect(first('response.function_call_arguments.delta')).toBeGreaterThan(first('response.reasoning_summary_text.done'));
    expect(types.at(-1)).toBe('response.completed');
    expect(final.output.map((item) => item.type)).toEqual(expect.arrayContaining(['reasoning', 'function_call']));
    expect(final.output.find((item) => item.type === 'function_call')).toMatchObject({ name: 'lookup', arguments: '{"q":"x"}' });
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(7);
  });

  it('returns sealed reasoning on a stateless turn and never sends reasoning back to DeepSeek', async () => {
    const first = await client.responses.create({
      model: 'thinking',
      input: 'Think first',
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    const reasoning = first.output.find((item) => item.type === 'reasoning');
    if (reasoning?.type !== 'reasoning') throw new Error('no reasoning');
    expect(reasoning.encrypted_content).toMatch(/^[A-Za-z0-9+/=_-]+$/);
    expect(reasoning.encrypted_content).not.toContain(reasoning.summary[0]?.text ?? '\u0000');
    const history = [{ role: 'user' as const, content: 'Think first' }, ...first.output, { role: 'user' as const, content: 'And now?' }];
    const second = await client.responses.create({ model: 'thinking', input: history as OpenAI.Responses.ResponseInput, store: false });
    expect(second.status).toBe('completed');
    const messages = lastBody(thinkingSim).messages as Record<string, unknown>[];
    expect(messages.some((m) => 'reasoning_content' in m)).toBe(false);
    // Nothing was kept: the stateless response cannot be read back.
    await expect(client.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('costs what the same call costs on /v1/chat/completions', async () => {
    const spender = await gateway.createKey({ name: 'same-spend', models: ['plain'], budget_usd: 1 });
    const own = sdk(spender.key);
    const response = await own.responses.create({ model: 'plain', input: 'Price me' });
    const completion = await own.chat.completions.create({ model: 'plain', messages: [{ role: 'user', content: 'Price me' }] });
    const [viaResponses, viaChat] = await Promise.all([spendRow(spender.id, response.id), spendRow(spender.id, completion.id)]);
    expect(viaResponses.cost_usd).toBeGreaterThan(0);
    expect(viaResponses.cost_usd).toBe(viaChat.cost_usd);
    expect(viaResponses.usage).toEqual(viaChat.usage);
  });
});

describe('streams that do not end well', () => {
  /** The SSE events of a streamed call, read raw until the stream ends or `stopAfter` events came. */
  async function events(body: Record<string, unknown>, stopAfter = Number.POSITIVE_INFINITY) {
    const controller = new AbortController();
    const response = await gateway.call('/v1/responses', key.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const seen: { event: string; data: Record<string, unknown> }[] = [];
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(bytes, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = /^event: (.+)$/m.exec(frame)?.[1] ?? '';
        const data = JSON.parse(/^data: (.+)$/m.exec(frame)?.[1] ?? 'null') as Record<string, unknown>;
        seen.push({ event, data });
      }
      if (seen.length >= stopAfter) break;
    }
    // Leaving early: the connection closes under the stream.
    controller.abort();
    return { seen, id: response.headers.get('x-request-id') };
  }

  /** The id response.created names. */
  const responseIdOf = (seen: { data: Record<string, unknown> }[]) => (seen[0]?.data.response as { id?: string } | undefined)?.id ?? '';

  it('ends with response.failed, numbered next, when the upstream fails after the stream started', async () => {
    spacedSim.fail({ cutAfterChunks: 3 });
    const { seen } = await events({ model: 'spaced', input: 'cut me off' });
    const last = seen.at(-1);
    expect(last?.event).toBe('response.failed');
    expect(last?.data.sequence_number).toBe(seen.length - 1);
    expect(seen.map((e) => e.data.sequence_number)).toEqual(seen.map((_, i) => i));
    const response = last?.data.response as { id: string; status: string; error: { code: string; message: string } };
    expect(response.status).toBe('failed');
    expect(response.id).toBe(responseIdOf(seen));
    expect(response.error.code).toMatch(/^upstream_/);
    expect(seen.some((e) => e.event === 'response.output_text.delta')).toBe(true);
  });

  it('bills a stream its caller abandons for what it consumed, marked estimated', async () => {
    const spender = await gateway.createKey({ name: 'leaver', models: ['spaced'], budget_usd: 1 });
    const { seen } = await (async () => {
      const own = key;
      key = spender;
      try {
        return await events({ model: 'spaced', input: 'I will leave early' }, 6);
      } finally {
        key = own;
      }
    })();
    const id = responseIdOf(seen);
    const row = (await spendRow(spender.id, id)) as LogRow & { estimated: boolean };
    expect(row.cost_usd).toBeGreaterThan(0);
    expect(row.estimated).toBe(true);
  });
});

describe('requests as real clients write them', () => {
  const fixture = (name: string) =>
    JSON.parse(readFileSync(new URL(`../fixtures/codex/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

  it("reads Codex's own tool turn on DeepSeek: developer as system, namespaces flattened, web_search dropped, foreign reasoning left out", async () => {
    const body = { ...fixture('tool-turn-request.json'), model: 'thinking', stream: false };
    const response = await gateway.call('/v1/responses', key.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(response.headers.get('x-gateway-dropped')).toBe('web_search');
    const sent = lastBody(thinkingSim);
    const messages = sent.messages as Record<string, unknown>[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'system', 'user', 'user', 'assistant', 'tool']);
    expect(messages.some((m) => 'reasoning_content' in m)).toBe(false);
    expect(messages[4]).toMatchObject({ tool_calls: [{ id: 'call_capture_2', function: { name: 'exec_command' } }] });
    const names = (sent.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(['exec_command', 'spawn_agent', 'wait_agent']));
    expect('client_metadata' in sent).toBe(false);
  });

  it("cleans the Agents SDK's tool schemas for DeepSeek ($schema and strict left out) and passes them on to OpenAI", async () => {
    const body = { ...fixture('agents-sdk-first-request-plain.json'), stream: false };
    for (const model of ['thinking', 'plain']) {
      const response = await gateway.call('/v1/responses', key.key, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, model }),
      });
      expect(response.status, await response.text()).toBe(200);
    }
    const [toDeepSeek] = lastBody(thinkingSim).tools as { function: Record<string, unknown> }[];
    expect(toDeepSeek?.function.strict).toBeUndefined();
    expect(toDeepSeek?.function.parameters).not.toHaveProperty('$schema');
    const [toOpenAI] = lastBody(plainSim).tools as { function: Record<string, unknown> }[];
    expect(toOpenAI?.function.strict).toBe(true);
    expect(toOpenAI?.function.parameters).toHaveProperty('$schema');
  });
});

describe('stored responses belong to their key', () => {
  it('retrieve, input_items and delete are 404 for another key; delete removes it for its own', async () => {
    const response = await client.responses.create({ model: 'demo-chat', input: 'mine' });
    const other = sdk((await gateway.createKey({ name: 'other', models: ['*'] })).key);
    await expect(other.responses.retrieve(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(other.responses.inputItems.list(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(other.responses.delete(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      other.responses.create({ model: 'demo-chat', input: 'continue', previous_response_id: response.id }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect((await client.responses.retrieve(response.id)).id).toBe(response.id);
    await client.responses.delete(response.id);
    await expect(client.responses.retrieve(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('keeps nothing for a key whose storage is off, and refuses store: true naming it', async () => {
    const created = await gateway.admin('POST', '/admin/v1/keys', {
      name: 'no-store',
      models: ['*'],
      budget_usd: 1,
      store_responses: false,
    });
    const text = await created.text();
    expect(created.status, text).toBe(201);
    const { key: secret } = JSON.parse(text) as { key: string };
    const own = sdk(secret);
    const response = await own.responses.create({ model: 'demo-chat', input: 'forget me' });
    expect((response as { store?: boolean }).store).toBe(false);
    await expect(own.responses.retrieve(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const refused = await own.responses.create({ model: 'demo-chat', input: 'keep me', store: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((refused as InstanceType<typeof OpenAI.UnprocessableEntityError>).param).toBe('store');
  });
});

describe('refusals answered as on chat', () => {
  const status = (error: unknown) => (error instanceof OpenAI.APIError ? [error.status, error.code] : error);

  it('budget exceeded', async () => {
    const broke = sdk((await gateway.createKey({ name: 'broke', models: ['*'], budget_usd: 0 })).key);
    const viaChat = await broke.chat.completions.create({ model: 'plain', messages: [{ role: 'user', content: 'x' }] }).catch(status);
    const viaResponses = await broke.responses.create({ model: 'plain', input: 'x' }).catch(status);
    expect(viaChat).toEqual([expect.any(Number), 'budget_exceeded']);
    expect(viaResponses).toEqual(viaChat);
  });

  it('rate limit', async () => {
    const slow = sdk((await gateway.createKey({ name: 'slow', models: ['*'], rpm: 1 })).key);
    await slow.responses.create({ model: 'demo-chat', input: 'one' });
    const viaResponses = await slow.responses.create({ model: 'demo-chat', input: 'two' }).catch(status);
    const viaChat = await slow.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'x' }] }).catch(status);
    expect(viaResponses).toEqual([429, 'rate_limit_exceeded']);
    expect(viaChat).toEqual(viaResponses);
  });

  it('background: true is refused naming it', async () => {
    const refused = await client.responses.create({ model: 'demo-chat', input: 'x', background: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((refused as InstanceType<typeof OpenAI.UnprocessableEntityError>).param).toBe('background');
  });
});
