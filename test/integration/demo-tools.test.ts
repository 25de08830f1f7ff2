import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// An agent's whole tool loop through the gateway with no vendor account: demo-chat calls the
// function its user message marks (`[demo:call NAME {json}]`), the agent runs it and sends the
// result back, and demo-chat answers by quoting the result, plain and streamed.

let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { DEEPSEEK_API_KEY: '' } });
  const { key } = await gateway.createKey({ models: ['demo-chat'], budget_usd: 1 });
  client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => stopTestGateway(gateway));

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The weather in a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
const question: OpenAI.ChatCompletionMessageParam = {
  role: 'user',
  content: 'What is the weather in Paris? [demo:call get_weather {"city": "Paris", "note": "a {nested} [bracket]"}]',
};
const ARGUMENTS = '{"city":"Paris","note":"a {nested} [bracket]"}';

/** The agent's side: runs the one function it offers. */
const runTool = (call: OpenAI.ChatCompletionMessageToolCall) =>
  call.type === 'function' ? `Sunny and 21 C in ${(JSON.parse(call.function.arguments) as { city: string }).city}.` : 'unknown tool';

describe('tool calls on the demo provider', () => {
  it('runs a whole tool round trip: call, result, and an answer quoting it', async () => {
    const first = await client.chat.completions.create({ model: 'demo-chat', messages: [question], tools });
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    if (!choice || call?.type !== 'function') throw new Error('no function call');
    expect(call.id).toMatch(/^call_/);
    expect(call.function).toEqual({ name: 'get_weather', arguments: ARGUMENTS });
    expect(first.usage?.completion_tokens).toBeGreaterThan(0);

    const second = await client.chat.completions.create({
      model: 'demo-chat',
      tools,
      messages: [question, choice.message, { role: 'tool', tool_call_id: call.id, content: runTool(call) }],
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toBe('Tool get_weather returned: Sunny and 21 C in Paris.');
    expect(second.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(second.usage?.prompt_tokens).toBeGreaterThan(first.usage?.prompt_tokens ?? 0);
  });

  it('streams the call as OpenAI does, so the SDK reassembles it, then streams the answer', async () => {
    const stream = client.chat.completions.stream({
      model: 'demo-chat',
      messages: [question],
      tools,
      stream_options: { include_usage: true },
    });
    let argumentDeltas = 0;
    for await (const chunk of stream) if (chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments) argumentDeltas += 1;
    const called = await stream.finalChatCompletion();
    expect(argumentDeltas).toBeGreaterThan(1);
    expect(called.choices[0]?.finish_reason).toBe('tool_calls');
    const call = called.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('no function call');
    expect(call.function).toEqual({ name: 'get_weather', arguments: ARGUMENTS });
    expect(called.usage?.completion_tokens).toBeGreaterThan(0);

    const answer = client.chat.completions.stream({
      model: 'demo-chat',
      tools,
      messages: [
        question,
        called.choices[0]?.message as OpenAI.ChatCompletionMessageParam,
        { role: 'tool', tool_call_id: call.id, content: runTool(call) },
      ],
    });
    const done = await answer.finalChatCompletion();
    expect(done.choices[0]?.finish_reason).toBe('stop');
    expect(done.choices[0]?.message.content).toBe('Tool get_weather returned: Sunny and 21 C in Paris.');
  });
});
