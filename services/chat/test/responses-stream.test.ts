import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/domain/request.js';
import type { ChatUsage } from '../src/domain/usage.js';
import { newResponseId } from '../src/responses/ids.js';
import { responseUsage } from '../src/responses/output.js';
import type { ResponseShell } from '../src/responses/shell.js';
import { ResponseEvents } from '../src/responses/stream-events.js';

// Chat chunks as Responses events: the grammar OpenAI streams (items added, filled, done in
// output order), sequence numbers from 0, deltas that add up to the final items, and frames
// the openai SDK's own stream accumulator takes, ending on the same response.

const usage: ChatUsage = { prompt_tokens: 30, cached_tokens: 10, completion_tokens: 20, reasoning_tokens: 5 };

const shell = (extra: Partial<ResponseShell> = {}): ResponseShell => ({
  id: newResponseId(),
  model: 'my-model',
  createdAt: 1_700_000_000,
  echo: { instructions: 'Be brief' },
  ...extra,
});

const delta = (d: JsonObject, finish_reason: string | null = null): JsonObject => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: d, finish_reason }],
});
const usageChunk: JsonObject = { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 30 } };
const call = (index: number, fn: JsonObject, id?: string): JsonObject => ({ index, ...(id ? { id, type: 'function' } : {}), function: fn });

interface Run {
  frames: Buffer[];
  events: JsonObject[];
  response: JsonObject;
  sequence: number;
}

function run(chunks: JsonObject[], s: ResponseShell = shell()): Run {
  const translator = new ResponseEvents(s);
  const frames = [...translator.start()];
  for (const chunk of chunks) frames.push(...translator.chunk(chunk));
  frames.push(...translator.finish(usage));
  const events = frames.map((frame) => {
    const match = /^event: (\S+)\ndata: (.+)\n\n$/s.exec(frame.toString());
    if (!match) throw new Error(`not one SSE frame: ${frame.toString()}`);
    const data = JSON.parse(match[2] as string) as JsonObject;
    expect(data.type).toBe(match[1]);
    return data;
  });
  return { frames, events, response: translator.response, sequence: translator.sequence };
}

/** Each item's text and arguments as its deltas build them, by output index. */
function reassemble(events: JsonObject[]): Map<number, string> {
  const built = new Map<number, string>();
  for (const event of events) {
    if (typeof event.delta !== 'string') continue;
    const index = event.output_index as number;
    built.set(index, (built.get(index) ?? '') + event.delta);
  }
  return built;
}

function finalText(item: JsonObject): string {
  if (item.type === 'function_call') return item.arguments as string;
  const parts = (item.type === 'reasoning' ? item.summary : item.content) as JsonObject[];
  return parts.map((part) => part.text).join('');
}

function checkConsistent({ events, response, sequence }: Run): void {
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
  expect(sequence).toBe(events.length);
  const output = response.output as JsonObject[];
  const built = reassemble(events);
  for (const [index, item] of output.entries()) expect(built.get(index) ?? '').toBe(finalText(item));
  // Every item is added once and done once, at its own output index, done with its final state.
  const added = events.filter((event) => event.type === 'response.output_item.added');
  const done = events.filter((event) => event.type === 'response.output_item.done');
  expect(added.map((event) => event.output_index)).toEqual(output.map((_, i) => i));
  expect(done.map((event) => event.output_index).sort()).toEqual(output.map((_, i) => i));
  for (const event of done) expect(event.item).toEqual(output[event.output_index as number]);
  expect(events.at(-1)?.response).toEqual(response);
}

const types = (events: JsonObject[]) => events.map((event) => event.type);

describe('ResponseEvents', () => {
  it('plain text: the full grammar, in order', () => {
    const result = run([
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'Hel' }),
      delta({ content: 'lo' }),
      delta({}, 'stop'),
      usageChunk,
    ]);
    expect(types(result.events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    checkConsistent(result);
    const [created, , added, part, first] = result.events as [JsonObject, JsonObject, JsonObject, JsonObject, JsonObject];
    expect(created.response).toMatchObject({ status: 'in_progress', output: [], usage: null, instructions: 'Be brief', model: 'my-model' });
    expect(added.item).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      status: 'in_progress',
      content: [],
      role: 'assistant',
    });
    expect(part).toMatchObject({ item_id: (added.item as JsonObject).id, output_index: 0, content_index: 0 });
    expect(part.part).toEqual({ type: 'output_text', annotations: [], logprobs: [], text: '' });
    expect(first).toMatchObject({ item_id: (added.item as JsonObject).id, output_index: 0, content_index: 0, delta: 'Hel', logprobs: [] });
    expect(result.response).toMatchObject({ status: 'completed', incomplete_details: null, usage: responseUsage(usage) });
    expect((result.response.output as JsonObject[])[0]).toMatchObject({ status: 'completed', content: [{ text: 'Hello' }] });
  });

  it('reasoning, then text, then two parallel tool calls', () => {
    const s = shell({ sealReasoning: (text) => `sealed(${text})` });
    const result = run(
      [
        delta({ role: 'assistant', reasoning_content: 'Think' }),
        delta({ reasoning_content: 'ing…' }),
        delta({ reasoning_content: null, content: 'Calling.' }),
        delta({ tool_calls: [call(0, { name: 'a', arguments: '' }, 'call_A')] }),
        delta({ tool_calls: [call(0, { arguments: '{"x":' })] }),
        delta({ tool_calls: [call(0, { arguments: '1}' })] }),
        delta({ tool_calls: [call(1, { name: 'b', arguments: '{}' }, 'call_B')] }),
        delta({}, 'tool_calls'),
        usageChunk,
      ],
      s,
    );
    checkConsistent(result);
    expect(types(result.events).slice(2, 9)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
    ]);
    const output = result.response.output as JsonObject[];
    expect(output).toEqual([
      {
        id: expect.stringMatching(/^rs_/),
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Thinking…' }],
        encrypted_content: 'sealed(Thinking…)',
      },
      expect.objectContaining({ type: 'message', status: 'completed', content: [expect.objectContaining({ text: 'Calling.' })] }),
      { id: expect.stringMatching(/^fc_/), type: 'function_call', status: 'completed', arguments: '{"x":1}', call_id: 'call_A', name: 'a' },
      { id: expect.stringMatching(/^fc_/), type: 'function_call', status: 'completed', arguments: '{}', call_id: 'call_B', name: 'b' },
    ]);
    // The reasoning item is added without its summary, then done with it (and its sealed text).
    const reasoningAdded = result.events[2] as JsonObject;
    expect(reasoningAdded.item).toEqual({ id: output[0]?.id, type: 'reasoning', summary: [] });
    const fcAdded = result.events.find((e) => e.type === 'response.output_item.added' && e.output_index === 2);
    expect(fcAdded?.item).toEqual({
      id: output[2]?.id,
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: 'call_A',
      name: 'a',
    });
    const argsDone = result.events.filter((e) => e.type === 'response.function_call_arguments.done');
    expect(argsDone.map((e) => [e.output_index, e.name, e.arguments, e.item_id])).toEqual([
      [2, 'a', '{"x":1}', output[2]?.id],
      [3, 'b', '{}', output[3]?.id],
    ]);
    // The message closes as soon as the tool calls begin.
    const messageDone = result.events.findIndex((e) => e.type === 'response.output_item.done' && e.output_index === 1);
    expect(messageDone).toBeLessThan(result.events.indexOf(fcAdded as JsonObject));
  });

  it('length: response.incomplete for max_output_tokens, the cut message incomplete', () => {
    const result = run([delta({ content: 'Once upon' }), delta({ content: ' a' }, 'length')]);
    checkConsistent(result);
    const last = result.events.at(-1) as JsonObject;
    expect(last.type).toBe('response.incomplete');
    expect(result.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect((result.response.output as JsonObject[])[0]?.status).toBe('incomplete');
  });

  it('an empty stream still completes, with usage', () => {
    const result = run([delta({ role: 'assistant' }), delta({}, 'stop')]);
    expect(types(result.events)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(result.response).toMatchObject({ output: [], usage: responseUsage(usage) });
  });

  it('a tool call whose upstream gave no id gets one', () => {
    const result = run([delta({ tool_calls: [call(0, { name: 'f', arguments: '{}' })] }), delta({}, 'tool_calls')]);
    checkConsistent(result);
    expect((result.response.output as JsonObject[])[0]?.call_id).toMatch(/^call_/);
  });
});

/** The response without what the SDK's parser adds (`output_parsed`, each text's `parsed`, each call's `parsed_arguments`). */
function unparsed(response: JsonObject): JsonObject {
  const { output_parsed, ...rest } = response;
  expect(output_parsed).toBeNull();
  const output = (rest.output as JsonObject[]).map((item) => {
    if (item.type === 'function_call') {
      const { parsed_arguments, ...call } = item;
      return call;
    }
    if (item.type !== 'message') return item;
    const content = (item.content as JsonObject[]).map(({ parsed, ...part }) => part);
    return { ...item, content };
  });
  return { ...rest, output };
}

describe('the openai SDK reads the frames', () => {
  let server: Server;
  let frames: Buffer[] = [];
  let client: OpenAI;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // One frame per write, as the gateway sends them.
        for (const frame of frames) res.write(frame);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function throughSdk(result: Run): Promise<{ final: JsonObject; deltas: string; events: string[] }> {
    frames = result.frames;
    const stream = client.responses.stream({ model: 'my-model', input: 'hi' });
    let deltas = '';
    const events: string[] = [];
    stream.on('response.output_text.delta', (event) => {
      deltas += event.delta;
      expect(event.snapshot.endsWith(event.delta)).toBe(true);
    });
    for await (const event of stream) events.push(event.type);
    const final = (await stream.finalResponse()) as unknown as JsonObject;
    return { final: unparsed(final), deltas, events };
  }

  it('text: finalResponse() is the response, with output_text', async () => {
    const result = run([delta({ content: 'Hello, ' }), delta({ content: 'world' }), delta({}, 'stop')]);
    const { final, deltas, events } = await throughSdk(result);
    expect(final).toEqual({ ...result.response, output_text: 'Hello, world' });
    expect(deltas).toBe('Hello, world');
    expect(events).toEqual(types(result.events));
  });

  it('reasoning, text and parallel tool calls, sealed', async () => {
    const result = run(
      [
        delta({ reasoning_content: 'Hmm' }),
        delta({ content: 'Both.' }),
        delta({ tool_calls: [call(0, { name: 'a', arguments: '{"q"' }, 'call_1')] }),
        delta({ tool_calls: [call(0, { arguments: ':2}' })] }),
        delta({ tool_calls: [call(1, { name: 'b', arguments: '' }, 'call_2')] }),
        delta({ tool_calls: [call(1, { arguments: '[]' })] }),
        delta({}, 'tool_calls'),
      ],
      shell({ sealReasoning: (text) => Buffer.from(text).toString('base64') }),
    );
    const { final } = await throughSdk(result);
    expect(final).toEqual({ ...result.response, output_text: 'Both.' });
    const output = final.output as JsonObject[];
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call']);
    expect(output.slice(2).map((item) => item.arguments)).toEqual(['{"q":2}', '[]']);
  });

  it('length: the SDK ends on the incomplete response', async () => {
    const result = run([delta({ content: 'Once' }), delta({}, 'length')]);
    const { final } = await throughSdk(result);
    expect(final).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output_text: 'Once' });
    expect(final).toEqual({ ...result.response, output_text: 'Once' });
  });
});
