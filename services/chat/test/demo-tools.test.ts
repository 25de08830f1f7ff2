import type { DeploymentConfig } from '@gateway/config';
import { countTextTokens } from '@gateway/tokenizer';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/domain/request.js';
import { demoAnswers } from '../src/providers/demo/index.js';
import { findCallMarkers } from '@gateway/tool-markers';

// The demo model's tool calls: `[demo:call NAME {json}]` in the last user message calls an
// offered function, plain and streamed the way OpenAI streams them; a tool result as the
// latest message is quoted instead, even with the marker still in the user's text.

interface Call {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}
interface Completion {
  choices: { message: { content: string | null; tool_calls?: Call[] }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number };
}
interface Delta {
  content?: string | null;
  tool_calls?: { index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
}
interface Chunk {
  choices: { delta: Delta; finish_reason: string | null }[];
  usage?: Completion['usage'];
}

const call = (body: JsonObject) => ({
  deployment: {} as DeploymentConfig,
  path: '/chat/completions',
  body: { model: 'demo-tools', ...body },
  timeoutMs: 10_000,
  signal: new AbortController().signal,
});

const complete = async (body: JsonObject) => (await demoAnswers.complete(call(body))) as unknown as Completion;

async function chunks(body: JsonObject): Promise<Chunk[]> {
  const stream = await demoAnswers.stream(call({ ...body, stream: true, stream_options: { include_usage: true } }));
  const all: Chunk[] = [];
  for await (const batch of stream.batches) for (const data of batch) all.push(JSON.parse(data) as Chunk);
  return all;
}

/** The streamed calls put back together as a client does, by index. */
function reassemble(all: Chunk[]): { calls: Call[]; content: string; finish: string | null | undefined; usage: Chunk['usage'] } {
  const calls: Call[] = [];
  let content = '';
  for (const chunk of all) {
    const delta = chunk.choices[0]?.delta;
    if (typeof delta?.content === 'string') content += delta.content;
    for (const piece of delta?.tool_calls ?? []) {
      const into = (calls[piece.index] ??= { id: '', type: '', function: { name: '', arguments: '' } });
      if (piece.id) into.id = piece.id;
      if (piece.type) into.type = piece.type;
      if (piece.function?.name) into.function.name += piece.function.name;
      into.function.arguments += piece.function?.arguments ?? '';
    }
  }
  const finish = all.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0]?.finish_reason;
  return { calls, content, finish, usage: all.at(-1)?.usage };
}

const weather = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const search = { type: 'function', function: { name: 'search', parameters: { type: 'object' } } };
const asking = (content: unknown, tools: unknown[] = [weather, search]) => ({ messages: [{ role: 'user', content }], tools });

describe('the demo model calling tools', () => {
  it('calls the marked function with its arguments, compact, and counts them', async () => {
    const body = asking('What is the weather? [demo:call get_weather { "city": "Paris" }]');
    const answer = await complete(body);
    const choice = answer.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
    expect(answer.usage.completion_tokens).toBe(countTextTokens('get_weather') + countTextTokens('{"city":"Paris"}'));
    // The tool definitions are prompt: the same question without them costs less.
    const bare = await complete({ messages: body.messages });
    expect(answer.usage.prompt_tokens - bare.usage.prompt_tokens).toBe(countTextTokens(JSON.stringify(body.tools)));
  });

  it('streams the call as OpenAI does, its arguments in pieces that reassemble to the plain answer', async () => {
    const body = asking('Go [demo:call get_weather {"city": "Paris", "days": [1, 2, 3], "units": "metric"}]');
    const plain = await complete(body);
    const all = await chunks(body);
    const head = all[0]?.choices[0]?.delta;
    expect(head).toMatchObject({ role: 'assistant', content: null });
    expect(head?.tool_calls).toEqual([
      { index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '' } },
    ]);
    const pieces = all.filter((chunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments);
    expect(pieces.length).toBeGreaterThan(2);
    const streamed = reassemble(all);
    expect(streamed.calls.map((c) => c.function)).toEqual(plain.choices[0]?.message.tool_calls?.map((c) => c.function));
    expect(streamed.finish).toBe('tool_calls');
    expect(all.at(-2)?.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'tool_calls' });
    // The same usage, but for the tool definitions' block, cached now that the prompt repeats.
    expect(streamed.usage).toEqual({ ...plain.usage, prompt_tokens_details: { cached_tokens: 64 } });
  });

  it('quotes a tool result as the latest message first, though the marker is still in the user text', async () => {
    const first = await complete(asking('[demo:call get_weather {"city":"Paris"}]'));
    const made = first.choices[0]?.message.tool_calls ?? [];
    const result = `Sunny, 21 C. ${'x'.repeat(600)}`;
    const body = {
      tools: [weather],
      messages: [
        { role: 'user', content: '[demo:call get_weather {"city":"Paris"}]' },
        { role: 'assistant', content: null, tool_calls: made },
        { role: 'tool', tool_call_id: made[0]?.id, content: result },
      ],
    };
    const answer = await complete(body);
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    expect(answer.choices[0]?.message.content).toBe(`Tool get_weather returned: ${result.slice(0, 500)}...`);
    const streamed = reassemble(await chunks(body));
    expect([streamed.content, streamed.finish, streamed.calls]).toEqual([answer.choices[0]?.message.content, 'stop', []]);
    // The earlier call's name and arguments are prompt now.
    const without = await complete({ ...body, messages: [body.messages[0], { role: 'assistant', content: '' }, body.messages[2]] });
    expect(answer.usage.prompt_tokens - without.usage.prompt_tokens).toBe(first.usage.completion_tokens);
  });

  it('ignores a marker naming a function not offered, or with invalid JSON, or with no tools', async () => {
    for (const body of [
      asking('[demo:call delete_all {"really": true}]'),
      asking('[demo:call get_weather {"city": Paris}]'),
      asking('[demo:call get_weather {"city": "Paris"}'),
      asking('[demo:call get_weather ["Paris"]]'),
      { messages: [{ role: 'user', content: '[demo:call get_weather {"city":"Paris"}]' }] },
      { ...asking('[demo:call get_weather {"city":"Paris"}]'), tool_choice: 'none' },
    ]) {
      const answer = await complete(body);
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.choices[0]?.message.content).toContain('demo model answering');
      expect(answer.choices[0]?.message.tool_calls).toBeUndefined();
    }
  });

  it('reads nested braces and brackets inside strings, and content-part arrays', async () => {
    const args = { query: 'a } tricky ] "one" {', filter: { nested: { deep: [1, { x: '[demo:call search {}]' }] } } };
    const parts = [
      { type: 'text', text: 'Look this up:' },
      { type: 'text', text: `[demo:call search ${JSON.stringify(args, null, 2)}] thanks` },
    ];
    const answer = await complete(asking(parts));
    expect(answer.choices[0]?.message.tool_calls?.map((c) => c.function)).toEqual([{ name: 'search', arguments: JSON.stringify(args) }]);
  });

  it('makes one call per marker, the first only when parallel calls are off, streamed with their indexes', async () => {
    const text = '[demo:call get_weather {"city":"Paris"}] and [demo:call search {"q":"rain"}]';
    const both = reassemble(await chunks(asking(text)));
    expect(both.calls.map((c) => c.function)).toEqual([
      { name: 'get_weather', arguments: '{"city":"Paris"}' },
      { name: 'search', arguments: '{"q":"rain"}' },
    ]);
    expect(new Set(both.calls.map((c) => c.id)).size).toBe(2);
    const one = await complete({ ...asking(text), parallel_tool_calls: false });
    expect(one.choices[0]?.message.tool_calls?.map((c) => c.function.name)).toEqual(['get_weather']);
    const named = await complete({ ...asking(text), tool_choice: { type: 'function', function: { name: 'search' } } });
    expect(named.choices[0]?.message.tool_calls?.map((c) => c.function.name)).toEqual(['search']);
  });
});

describe('findCallMarkers', () => {
  const offered = new Set(['f', 'g.h']);
  it.each([
    ['[demo:call f {}]', [{ name: 'f', arguments: '{}' }]],
    ['x [demo:call  g.h{"a":"]"}  ] y', [{ name: 'g.h', arguments: '{"a":"]"}' }]],
    ['[demo:call f {"a":"\\"}"}]', [{ name: 'f', arguments: '{"a":"\\"}"}' }]],
    ['[demo:call f {"a":1} trailing]', []],
    ['[demo:callf {}]', []],
    ['[demo:call f {"a":1]', []],
    ['[demo:call f {} [demo:call f {"b":2}]', [{ name: 'f', arguments: '{"b":2}' }]],
    ['[sim:call f {}]', []],
  ])('%s', (text, expected) => {
    expect(findCallMarkers(text, 'demo', offered)).toEqual(expected);
  });
});
