import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/domain/request.js';
import type { ChatUsage } from '../src/domain/usage.js';
import { messageFromCompletion, newToolUseId } from '../src/messages/output.js';
import type { MessageShell } from '../src/messages/shell.js';
import { signThinking, verifyThinking } from '../src/messages/signature.js';
import { messageUsage } from '../src/messages/usage.js';

// A chat completion as an Anthropic message: blocks in the model's order, signed thinking,
// tool calls with parsed input, the finish reason as stop_reason, usage in Anthropic's terms.

const key = randomBytes(32);
const shell = (stopSequences: string[] = []): MessageShell => ({
  id: 'msg_0123456789abcdef',
  model: 'claude-sonnet-4-5',
  signThinking: (text) => signThinking(key, text),
  stopSequences,
});
const usage: ChatUsage = { prompt_tokens: 100, cached_tokens: 60, completion_tokens: 20, reasoning_tokens: 8 };

function completion(message: JsonObject, finish_reason = 'stop', extra: JsonObject = {}): JsonObject {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason, ...extra }],
    usage: { prompt_tokens: 12, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 2 } },
  };
}

const call = (id: string, name: string, args: string): JsonObject => ({ id, type: 'function', function: { name, arguments: args } });

describe('messageFromCompletion', () => {
  it('makes a plain text message, its usage from the completion when none is given', () => {
    expect(messageFromCompletion(shell(), completion({ content: 'Hello!' }))).toEqual({
      id: 'msg_0123456789abcdef',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      stop_details: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2, cache_creation_input_tokens: 0 },
    });
  });

  it('puts a signed thinking block before the text', () => {
    const message = messageFromCompletion(shell(), completion({ reasoning_content: 'Let me think.', content: 'Four.' }), usage);
    const [thinking, text] = message.content as JsonObject[];
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'Let me think.' });
    expect(text).toEqual({ type: 'text', text: 'Four.' });
    expect(verifyThinking(key, 'Let me think.', thinking?.signature)).toBe(true);
    expect(verifyThinking(key, 'Let me think!', thinking?.signature)).toBe(false);
  });

  it('leaves out empty text', () => {
    const message = messageFromCompletion(shell(), completion({ content: '' }), usage);
    expect(message.content).toEqual([]);
  });

  it('makes one tool_use block per call, input parsed, after the text', () => {
    const one = messageFromCompletion(
      shell(),
      completion({ content: 'Checking.', tool_calls: [call('call_1', 'get_weather', '{"city":"Paris"}')] }, 'tool_calls'),
      usage,
    );
    expect(one.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(one.stop_reason).toBe('tool_use');
    const two = messageFromCompletion(
      shell(),
      completion({ content: null, tool_calls: [call('call_1', 'a', '{"x":1}'), call('', 'b', '{"y":[2]}')] }, 'tool_calls'),
      usage,
    );
    const blocks = two.content as JsonObject[];
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toEqual({ type: 'tool_use', id: 'call_1', name: 'a', input: { x: 1 } });
    expect(blocks[1]).toMatchObject({ type: 'tool_use', name: 'b', input: { y: [2] } });
    expect(blocks[1]?.id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
  });

  it('gives malformed or non-object arguments an empty input, and tool calls under a plain stop stop for tool_use', () => {
    const message = messageFromCompletion(
      shell(),
      completion({ tool_calls: [call('c1', 'a', '{"x":'), call('c2', 'b', '[1]'), call('c3', 'c', '')] }),
      usage,
    );
    expect((message.content as JsonObject[]).map((block) => block.input)).toEqual([{}, {}, {}]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('maps finish reasons', () => {
    const stopOf = (finish: string, extra: JsonObject = {}, stops: string[] = []) => {
      const message = messageFromCompletion(shell(stops), completion({ content: 'x' }, finish, extra), usage);
      return [message.stop_reason, message.stop_sequence];
    };
    expect(stopOf('length')).toEqual(['max_tokens', null]);
    expect(stopOf('content_filter')).toEqual(['refusal', null]);
    expect(stopOf('stop')).toEqual(['end_turn', null]);
    // Only an upstream that names the matched stop, and only one the caller sent.
    expect(stopOf('stop', { stop_reason: 'END' }, ['END'])).toEqual(['stop_sequence', 'END']);
    expect(stopOf('stop', { matched_stop: '###' }, ['END', '###'])).toEqual(['stop_sequence', '###']);
    expect(stopOf('stop', { stop_reason: 'other' }, ['END'])).toEqual(['end_turn', null]);
    expect(stopOf('stop', { matched_stop: 151645 }, ['END'])).toEqual(['end_turn', null]);
    const refusal = messageFromCompletion(shell(), completion({ content: '' }, 'content_filter'), usage);
    expect(refusal.stop_details).toEqual({ type: 'refusal', category: null, explanation: null });
  });

  it("takes the usage given over the completion's own", () => {
    expect(messageFromCompletion(shell(), completion({ content: 'x' }), usage).usage).toEqual({
      input_tokens: 40,
      output_tokens: 20,
      cache_read_input_tokens: 60,
      cache_creation_input_tokens: 0,
    });
  });
});

describe('messageUsage', () => {
  it('leaves cache reads out of input_tokens and counts thinking as output', () => {
    expect(messageUsage(usage)).toEqual({
      input_tokens: 40,
      output_tokens: 20,
      cache_read_input_tokens: 60,
      cache_creation_input_tokens: 0,
    });
    expect(messageUsage({ prompt_tokens: 7, cached_tokens: 0, completion_tokens: 0, reasoning_tokens: 0 })).toEqual({
      input_tokens: 7,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });
});

describe('thinking signatures', () => {
  it('verify only the text they signed, under the key that signed it', () => {
    const signature = signThinking(key, 'a thought');
    expect(signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(verifyThinking(key, 'a thought', signature)).toBe(true);
    expect(verifyThinking(key, 'a thought.', signature)).toBe(false);
    expect(verifyThinking(randomBytes(32), 'a thought', signature)).toBe(false);
    for (const bad of ['', 'abc', `${signature}x`, signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), null, 42, {}, undefined]) {
      expect(verifyThinking(key, 'a thought', bad)).toBe(false);
    }
    // The empty text signs and verifies too: a thinking block may be empty.
    expect(verifyThinking(key, '', signThinking(key, ''))).toBe(true);
  });

  it('signs with a key derived from the gateway key, not the key itself', async () => {
    const { createHmac } = await import('node:crypto');
    const direct = Buffer.concat([Buffer.of(1), createHmac('sha256', key).update('a thought').digest()]).toString('base64');
    expect(signThinking(key, 'a thought')).not.toBe(direct);
  });
});

describe('newToolUseId', () => {
  it('is toolu_ and 24 letters or digits, unique, later ones sorting later', () => {
    const ids = Array.from({ length: 50 }, () => newToolUseId());
    for (const id of ids) expect(id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts later for a later millisecond', async () => {
    const first = newToolUseId();
    await new Promise((resolve) => setTimeout(resolve, 3));
    expect(newToolUseId() > first).toBe(true);
  });
});
