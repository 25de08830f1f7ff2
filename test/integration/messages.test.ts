import type Anthropic from '@anthropic-ai/sdk';
import { countPromptTokens, expectedCachedTokens } from '@gateway/simulators';
import { describe, expect, it } from 'vitest';
import {
  LONG,
  TINY_PNG,
  client,
  gateway,
  key,
  lastBody,
  lastMessages,
  lengthRequests,
  lookupTool,
  plainSim,
  rawFrames,
  refusal,
  sdk,
  spendRow,
  thinkingSim,
  useMessagesGateway,
  type Body,
} from '../helpers/messages-gateway.js';

// Anthropic's Messages API (POST /v1/messages) with the official @anthropic-ai/sdk against the
// whole gateway: answers, streams, tools, thinking and request fields on the demo provider and on
// simulators speaking OpenAI's and DeepSeek's chat protocols; the same spend as chat.

useMessagesGateway();

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
    lengthRequests.length = 0;
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
