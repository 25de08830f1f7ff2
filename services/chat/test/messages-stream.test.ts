import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/domain/request.js';
import type { ChatUsage } from '../src/domain/usage.js';
import { messageFromCompletion, toolInput } from '../src/messages/output.js';
import type { MessageShell } from '../src/messages/shell.js';
import { signThinking, verifyThinking } from '../src/messages/signature.js';
import { MessageEvents } from '../src/messages/stream-events.js';

// Chat chunks as Anthropic's events: message_start, blocks started, filled and stopped one at a
// time in content order, message_delta and message_stop; deltas that add up to the final
// blocks, and frames the Anthropic SDK's own stream accumulator takes, ending on the same message.

const key = randomBytes(32);
const shell = (stopSequences: string[] = []): MessageShell => ({
  id: 'msg_0123456789abcdef',
  model: 'claude-sonnet-4-5',
  signThinking: (text) => signThinking(key, text),
  stopSequences,
});
const usage: ChatUsage = { prompt_tokens: 30, cached_tokens: 10, completion_tokens: 20, reasoning_tokens: 5 };

const delta = (d: JsonObject, finish_reason: string | null = null, extra: JsonObject = {}): JsonObject => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: d, finish_reason, ...extra }],
});
const usageChunk: JsonObject = { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 30 } };
const call = (index: number, fn: JsonObject, id?: string): JsonObject => ({ index, ...(id ? { id, type: 'function' } : {}), function: fn });

interface Run {
  frames: Buffer[];
  events: JsonObject[];
  message: JsonObject;
}

function run(chunks: JsonObject[], s: MessageShell = shell()): Run {
  const translator = new MessageEvents(s);
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
  return { frames, events, message: translator.message };
}

/** Each block as its start and deltas build it, by index. */
function reassemble(events: JsonObject[]): JsonObject[] {
  const blocks: JsonObject[] = [];
  for (const event of events) {
    const index = event.index as number;
    if (event.type === 'content_block_start') blocks[index] = { ...(event.content_block as JsonObject), json: '' };
    if (event.type !== 'content_block_delta') continue;
    const block = blocks[index] as JsonObject;
    const d = event.delta as JsonObject;
    if (d.type === 'text_delta') block.text = `${block.text}${d.text}`;
    if (d.type === 'thinking_delta') block.thinking = `${block.thinking}${d.thinking}`;
    if (d.type === 'signature_delta') block.signature = d.signature;
    if (d.type === 'input_json_delta') block.json = `${block.json}${d.partial_json}`;
  }
  return blocks.map(({ json, ...block }) =>
    block.type === 'tool_use' && json !== '' ? { ...block, input: toolInput(json as string) } : block,
  );
}

/** The grammar: start, then each block started, filled and stopped before the next, then delta and stop. */
function checkGrammar({ events, message }: Run): void {
  const types = events.map((event) => event.type);
  expect(types[0]).toBe('message_start');
  expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
  let open: number | undefined;
  let next = 0;
  for (const event of events.slice(1, -2)) {
    if (event.type === 'content_block_start') {
      expect(open).toBeUndefined();
      expect(event.index).toBe(next);
      open = next++;
    } else {
      expect(event.index).toBe(open);
      if (event.type === 'content_block_stop') open = undefined;
    }
  }
  expect(open).toBeUndefined();
  expect(reassemble(events)).toEqual(message.content);
  const last = events.at(-2) as JsonObject;
  expect(last.delta).toEqual({
    stop_reason: message.stop_reason,
    stop_sequence: message.stop_sequence,
    stop_details: message.stop_details,
  });
  expect(last.usage).toEqual(message.usage);
}

describe('MessageEvents', () => {
  it('streams text: the message_start shell, one text block, the stop and the billed usage', () => {
    const result = run([
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'Hel' }),
      delta({ content: 'lo' }),
      delta({}, 'stop'),
      usageChunk,
    ]);
    checkGrammar(result);
    expect(result.events.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(result.events[0]).toEqual({
      type: 'message_start',
      message: {
        id: 'msg_0123456789abcdef',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      },
    });
    expect(result.events[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    expect(result.events[2]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } });
    expect(result.events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null, stop_details: null },
      usage: { input_tokens: 20, output_tokens: 20, cache_read_input_tokens: 10, cache_creation_input_tokens: 0 },
    });
    expect(result.message.content).toEqual([{ type: 'text', text: 'Hello' }]);
  });

  it('is the message a plain call makes for the same answer', () => {
    const s = shell();
    const result = run(
      [delta({ reasoning_content: 'Think' }), delta({ reasoning_content: 'ing.' }), delta({ content: 'Done.' }), delta({}, 'stop')],
      s,
    );
    const plain = messageFromCompletion(
      s,
      { choices: [{ index: 0, message: { reasoning_content: 'Thinking.', content: 'Done.' }, finish_reason: 'stop' }] },
      usage,
    );
    expect(result.message).toEqual(plain);
  });

  it('signs the whole thinking text just before its block stops', () => {
    const result = run([
      delta({ reasoning_content: 'Two plus ' }),
      delta({ reasoning_content: 'two.' }),
      delta({ content: '4' }),
      delta({}, 'stop'),
    ]);
    checkGrammar(result);
    const types = result.events.map((event) => [event.type, (event.delta as JsonObject | undefined)?.type]);
    expect(types.slice(1, 6)).toEqual([
      ['content_block_start', undefined],
      ['content_block_delta', 'thinking_delta'],
      ['content_block_delta', 'thinking_delta'],
      ['content_block_delta', 'signature_delta'],
      ['content_block_stop', undefined],
    ]);
    expect(result.events[1]?.content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });
    const [thinking] = result.message.content as JsonObject[];
    expect(thinking?.thinking).toBe('Two plus two.');
    expect(verifyThinking(key, 'Two plus two.', thinking?.signature)).toBe(true);
    expect(verifyThinking(key, 'Two plus three.', thinking?.signature)).toBe(false);
  });

  it('streams one tool call: every byte of its arguments in input_json_delta, in order', () => {
    const result = run([
      delta({ content: 'Let me check.' }),
      delta({ tool_calls: [call(0, { name: 'get_weather', arguments: '' }, 'call_1')] }),
      delta({ tool_calls: [call(0, { arguments: '{"ci' })] }),
      delta({ tool_calls: [call(0, { arguments: 'ty": "Par' })] }),
      delta({ tool_calls: [call(0, { arguments: 'is"}' })] }),
      delta({}, 'tool_calls'),
    ]);
    checkGrammar(result);
    const partial = result.events.filter((event) => (event.delta as JsonObject | undefined)?.type === 'input_json_delta');
    expect(partial.map((event) => (event.delta as JsonObject).partial_json).join('')).toBe('{"city": "Paris"}');
    expect(result.events.find((e) => e.type === 'content_block_start' && e.index === 1)?.content_block).toEqual({
      type: 'tool_use',
      id: 'call_1',
      name: 'get_weather',
      input: {},
    });
    expect(result.message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(result.message.stop_reason).toBe('tool_use');
  });

  it('streams two tool calls as two blocks, the first stopped before the second starts', () => {
    const result = run([
      delta({ tool_calls: [call(0, { name: 'a', arguments: '{"x":' }, 'call_a')] }),
      delta({ tool_calls: [call(0, { arguments: '1}' })] }),
      delta({ tool_calls: [call(1, { name: 'b', arguments: '' })] }),
      delta({ tool_calls: [call(1, { arguments: '{"y":"z"}' })] }),
      delta({}, 'tool_calls'),
    ]);
    checkGrammar(result);
    const content = result.message.content as JsonObject[];
    expect(content[0]).toEqual({ type: 'tool_use', id: 'call_a', name: 'a', input: { x: 1 } });
    expect(content[1]).toMatchObject({ type: 'tool_use', name: 'b', input: { y: 'z' } });
    expect(content[1]?.id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
  });

  it('holds a call whose first delta has no name until the name comes, its arguments kept', () => {
    const result = run([
      delta({ tool_calls: [call(0, { arguments: '{"q":' }, 'call_q')] }),
      delta({ tool_calls: [call(0, { name: 'search', arguments: '"x"}' })] }),
      delta({}, 'tool_calls'),
    ]);
    checkGrammar(result);
    expect(result.message.content).toEqual([{ type: 'tool_use', id: 'call_q', name: 'search', input: { q: 'x' } }]);
  });

  it('keeps the stream and the message alike when an upstream returns to a call already stopped', () => {
    const result = run([
      delta({ tool_calls: [call(0, { name: 'a', arguments: '{"x":1}' }, 'call_a')] }),
      delta({ tool_calls: [call(1, { name: 'b', arguments: '{}' }, 'call_b')] }),
      delta({ tool_calls: [call(0, { arguments: ' ' })] }),
      delta({ tool_calls: [call(2, { arguments: '{"n":' }, 'call_c')] }),
      delta({ content: 'after' }),
      delta({}, 'tool_calls'),
    ]);
    checkGrammar(result);
    // The nameless third call starts (nameless) before the text, keeping the upstream's order.
    expect((result.message.content as JsonObject[]).map((block) => block.name ?? block.type)).toEqual(['a', 'b', '', 'text']);
  });

  it('ends a cut-off answer with max_tokens, and a matched stop the upstream names with stop_sequence', () => {
    const cut = run([delta({ content: 'The answer is' }), delta({}, 'length')]);
    checkGrammar(cut);
    expect(cut.message.stop_reason).toBe('max_tokens');
    const stopped = run([delta({ content: 'a' }), delta({}, 'stop', { stop_reason: 'END' })], shell(['END']));
    expect([stopped.message.stop_reason, stopped.message.stop_sequence]).toEqual(['stop_sequence', 'END']);
  });

  it('streams an empty answer as start, delta and stop', () => {
    const result = run([delta({}, 'stop')]);
    checkGrammar(result);
    expect(result.events.map((event) => event.type)).toEqual(['message_start', 'message_delta', 'message_stop']);
  });

  it('carries an input estimate at the start, and writes nothing after finish', () => {
    const events = new MessageEvents(shell());
    const start = JSON.parse(events.start(123)[0]?.toString().split('data: ')[1] as string) as JsonObject;
    expect((start.message as JsonObject).usage).toMatchObject({ input_tokens: 123, output_tokens: 0 });
    expect(events.finish(usage)).toHaveLength(2);
    expect(events.finish(usage)).toEqual([]);
    expect(events.chunk(delta({ content: 'late' }))).toEqual([]);
  });
});

describe('MessageEvents through the Anthropic SDK', () => {
  let server: Server;
  let client: Anthropic;
  let frames: Buffer[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // A ping between frames, as a long wait would send, and each frame its own write.
        for (const [i, frame] of frames.entries()) {
          res.write(frame);
          if (i === 1) res.write('event: ping\ndata: {"type":"ping"}\n\n');
        }
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new Anthropic({ apiKey: 'x', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function throughSdk(result: Run): Promise<{ final: JsonObject; text: string; json: string; jsonSnapshot: unknown }> {
    frames = result.frames;
    let text = '';
    let json = '';
    let jsonSnapshot: unknown;
    const stream = client.messages
      .stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .on('text', (delta) => {
        text += delta;
      })
      .on('inputJson', (partial, snapshot) => {
        json += partial;
        jsonSnapshot = snapshot;
      });
    // The SDK adds `parsed_output` itself (its structured-output helper): not part of the wire message.
    const { parsed_output, ...final } = (await stream.finalMessage()) as unknown as JsonObject;
    expect(parsed_output).toBeNull();
    return { final: JSON.parse(JSON.stringify(final)) as JsonObject, text, json, jsonSnapshot };
  }

  it('accumulates thinking, text and a tool call into the message the gateway built', async () => {
    const result = run([
      delta({ reasoning_content: 'Weather ' }),
      delta({ reasoning_content: 'needed.' }),
      delta({ content: 'Checking ' }),
      delta({ content: 'Paris.' }),
      delta({ tool_calls: [call(0, { name: 'get_weather', arguments: '{"city":' }, 'call_1')] }),
      delta({ tool_calls: [call(0, { arguments: '"Paris","days":[1,2]}' })] }),
      delta({}, 'tool_calls'),
    ]);
    const { final, text, json, jsonSnapshot } = await throughSdk(result);
    expect(final).toEqual(result.message);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage).toEqual({ input_tokens: 20, output_tokens: 20, cache_read_input_tokens: 10, cache_creation_input_tokens: 0 });
    expect(text).toBe('Checking Paris.');
    expect(json).toBe('{"city":"Paris","days":[1,2]}');
    expect(jsonSnapshot).toEqual({ city: 'Paris', days: [1, 2] });
  });

  it('accumulates two tool calls and a length stop', async () => {
    const two = run([
      delta({ tool_calls: [call(0, { name: 'a', arguments: '{"x":1}' }, 'call_a')] }),
      delta({ tool_calls: [call(1, { name: 'b', arguments: '{"y":' }, 'call_b')] }),
      delta({ tool_calls: [call(1, { arguments: '2}' })] }),
      delta({}, 'tool_calls'),
    ]);
    expect((await throughSdk(two)).final).toEqual(two.message);
    const cut = run([delta({ content: 'The answer is' }), delta({}, 'length')]);
    const { final } = await throughSdk(cut);
    expect(final).toEqual(cut.message);
    expect(final.stop_reason).toBe('max_tokens');
  });

  it('raises an error event as the SDK error', async () => {
    // The frame the edge writes after the stream began (services/edge/src/routes/messages.ts).
    const error = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    frames = [...new MessageEvents(shell()).start(), Buffer.from(error)];
    const stream = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
  });
});
