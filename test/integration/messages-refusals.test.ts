import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  client,
  gateway,
  key,
  lookupTool,
  plainSim,
  post,
  rawFrames,
  refusal,
  sdk,
  spacedSim,
  spendRow,
  spendRows,
  spentOf,
  thinkingSim,
  useMessagesGateway,
  type Body,
} from '../helpers/messages-gateway.js';

// Anthropic's Messages API beyond the answer: count_tokens, the model list in Anthropic's shape,
// refusals in Anthropic's shape and statuses, and streams that end badly.

useMessagesGateway();

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
