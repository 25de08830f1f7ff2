import { ChatSimulator, countPromptTokens, countToolTokens } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The chat simulator's tool calls: `[sim:call NAME {json}]` in the last user message calls an
// offered function, plain and streamed as vendors stream them, in both flavors; a tool result
// as the latest message is quoted instead; faults still apply to a streamed call.

interface Call {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}
interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}
interface Completion {
  choices: { message: { content: string | null; tool_calls?: Call[] }; finish_reason: string }[];
  usage: Usage;
}
interface Chunk {
  choices: {
    delta: {
      role?: string;
      content?: string | null;
      tool_calls?: { index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
  }[];
  usage?: Usage | null;
}
interface Streamed {
  chunks: Chunk[];
  calls: Call[];
  content: string;
  finish: string | null | undefined;
  usage: Usage | null | undefined;
  done: boolean;
}

const weather = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const search = { type: 'function', function: { name: 'search', parameters: { type: 'object' } } };
const asking = (content: unknown) => ({ model: 'm', messages: [{ role: 'user', content }], tools: [weather, search] });

/** A streamed answer's chunks, and its calls put back together by index as a client does. */
function reassemble(text: string): Streamed {
  const chunks = text
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as Chunk);
  const calls: Call[] = [];
  let content = '';
  for (const chunk of chunks) {
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
  const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0]?.finish_reason;
  return { chunks, calls, content, finish, usage: chunks.at(-1)?.usage, done: text.endsWith('data: [DONE]\n\n') };
}

describe.each(['openai', 'deepseek'] as const)('chat simulator tool calls, %s flavor', (flavor) => {
  let sim: ChatSimulator;
  let base: string;
  beforeAll(async () => {
    sim = new ChatSimulator({ flavor, credential: 'k', models: ['m'], promptCache: false });
    base = await sim.listen();
  });
  afterAll(() => sim.close());

  const post = (body: Record<string, unknown>) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify(body),
    });
  const complete = async (body: Record<string, unknown>) => (await (await post(body)).json()) as Completion;
  const stream = async (body: Record<string, unknown>) =>
    reassemble(await (await post({ ...body, stream: true, stream_options: { include_usage: true } })).text());

  it('calls the marked function, its tools as prompt and its arguments as completion', async () => {
    const body = asking('Weather? [sim:call get_weather {"city": "Paris"}]');
    const answer = await complete(body);
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: null }, finish_reason: 'tool_calls' });
    expect(answer.choices[0]?.message.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    expect(answer.usage).toMatchObject({
      prompt_tokens: countPromptTokens(body.messages) + countToolTokens(body.tools),
      completion_tokens: Math.ceil('{"city":"Paris"}'.length / 4),
    });
  });

  it('streams the call as vendors do: a head with an empty arguments string, then pieces, then tool_calls', async () => {
    const body = asking('[sim:call search {"q": "rain in Paris", "filters": {"days": [1, 2, 3]}}]');
    const plain = await complete(body);
    const streamed = await stream(body);
    expect(streamed.chunks[0]?.choices[0]?.delta).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'search', arguments: '' } }],
    });
    expect(streamed.chunks.filter((c) => c.choices[0]?.delta.tool_calls?.[0]?.function?.arguments).length).toBeGreaterThan(2);
    expect(streamed.calls.map((c) => c.function)).toEqual(plain.choices[0]?.message.tool_calls?.map((c) => c.function));
    expect([streamed.finish, streamed.done]).toEqual(['tool_calls', true]);
    expect(streamed.usage).toEqual(plain.usage);
  });

  it('quotes a tool result as the latest message first, though the marker is still there', async () => {
    const made = (await complete(asking('[sim:call get_weather {"city":"Paris"}]'))).choices[0]?.message.tool_calls ?? [];
    const result = 'y'.repeat(700);
    const body = {
      ...asking('[sim:call get_weather {"city":"Paris"}]'),
      messages: [
        { role: 'user', content: '[sim:call get_weather {"city":"Paris"}]' },
        { role: 'assistant', content: null, tool_calls: made },
        { role: 'tool', tool_call_id: made[0]?.id, content: [{ type: 'text', text: result }] },
      ],
    };
    const expected = `Tool get_weather returned: ${result.slice(0, 500)}...`;
    const answer = await complete(body);
    expect(answer.choices[0]).toMatchObject({ message: { content: expected }, finish_reason: 'stop' });
    expect(answer.choices[0]?.message.tool_calls).toBeUndefined();
    const streamed = await stream(body);
    expect([streamed.content, streamed.finish, streamed.calls]).toEqual([expected, 'stop', []]);
    expect(streamed.usage?.completion_tokens).toBe(expected.split(' ').length);
  });

  it('answers its reply to a marker naming a function not offered, or with invalid JSON', async () => {
    for (const text of ['[sim:call rm_rf {"path": "/"}]', '[sim:call search {q: 1}]', '[demo:call search {"q": 1}]']) {
      const answer = await complete(asking(text));
      expect(answer.choices[0]).toMatchObject({
        message: { content: 'Hello from the simulator, one word at a time.' },
        finish_reason: 'stop',
      });
    }
  });

  it('reads nested braces, brackets in strings and content-part arrays', async () => {
    const args = { a: { b: { c: '} ] [sim:call x {}]' } }, list: [{}, []] };
    const parts = [
      { type: 'text', text: 'first' },
      { type: 'text', text: `[sim:call search ${JSON.stringify(args)}]` },
    ];
    const streamed = await stream(asking(parts));
    expect(streamed.calls.map((c) => c.function)).toEqual([{ name: 'search', arguments: JSON.stringify(args) }]);
  });

  it('still cuts a streamed call after the asked chunks, without finish or usage', async () => {
    // Paced, so the chunks before the cut leave the socket before it is destroyed.
    const paced = new ChatSimulator({ flavor, credential: 'k', models: ['m'], chunkDelayMs: 5 });
    const url = await paced.listen();
    paced.fail({ cutAfterChunks: 2 });
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ ...asking('[sim:call get_weather {"city":"Paris"}]'), stream: true, stream_options: { include_usage: true } }),
    });
    // The body ends in an error: keep what arrived before it.
    let text = '';
    const decoder = new TextDecoder();
    try {
      for await (const bytes of response.body ?? []) text += decoder.decode(bytes, { stream: true });
    } catch {}
    await paced.close();
    const streamed = reassemble(text);
    expect(streamed.chunks.length).toBe(2);
    expect(streamed.chunks[0]?.choices[0]?.delta.tool_calls?.[0]?.function?.name).toBe('get_weather');
    expect([streamed.finish, streamed.done, paced.totals.calls]).toEqual([undefined, false, 0]);
  });
});
