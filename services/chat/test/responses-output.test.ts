import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/domain/request.js';
import { newItemId, newResponseId } from '../src/responses/ids.js';
import { responseFromCompletion, responseUsage } from '../src/responses/output.js';
import { responseBase, type ResponseShell } from '../src/responses/shell.js';

// A chat completion as a Responses object: items in the order a model makes them, the finish
// reason as the status, usage in the Responses shape, and the request's settings echoed.

const shell = (extra: Partial<ResponseShell> = {}): ResponseShell => ({
  id: newResponseId(),
  model: 'my-model',
  createdAt: 1_700_000_000,
  echo: {},
  ...extra,
});

const usage = {
  prompt_tokens: 100,
  completion_tokens: 40,
  total_tokens: 140,
  prompt_tokens_details: { cached_tokens: 64 },
  completion_tokens_details: { reasoning_tokens: 25 },
};

function completion(message: JsonObject, finish_reason = 'stop'): JsonObject {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'upstream',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
    usage,
  };
}

describe('ids', () => {
  it('makes prefixed, distinct ids', () => {
    const id = newResponseId();
    expect(id).toMatch(/^resp_[A-Za-z0-9]{8,64}$/);
    expect(id.length).toBeGreaterThanOrEqual(5 + 24);
    expect(newResponseId()).not.toBe(id);
    expect(newItemId('msg')).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(newItemId('fc')).toMatch(/^fc_/);
    expect(newItemId('rs')).toMatch(/^rs_/);
  });
});

describe('responseBase', () => {
  it('shows OpenAI defaults for settings the request left out', () => {
    const base = responseBase(shell(), 'in_progress');
    expect(base).toMatchObject({
      object: 'response',
      created_at: 1_700_000_000,
      status: 'in_progress',
      background: false,
      completed_at: null,
      error: null,
      incomplete_details: null,
      instructions: null,
      model: 'my-model',
      output: [],
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      temperature: 1,
      top_p: 1,
      text: { format: { type: 'text' } },
      reasoning: { effort: null, summary: null },
      metadata: {},
      store: true,
      truncation: 'disabled',
      usage: null,
    });
  });

  it('echoes what the caller sent, completing partial objects, never over the gateway’s own fields', () => {
    const tools = [{ type: 'function', name: 'f', parameters: {} }];
    const base = responseBase(
      shell({
        echo: {
          instructions: 'Be brief',
          tools,
          tool_choice: 'required',
          temperature: 0.2,
          reasoning: { effort: 'high' },
          text: { verbosity: 'low' },
          metadata: { a: 'b' },
          store: false,
          id: 'resp_evil',
          status: 'completed',
        },
      }),
      'completed',
    );
    expect(base.id).not.toBe('resp_evil');
    expect(base.status).toBe('completed');
    expect(typeof base.completed_at).toBe('number');
    expect(base).toMatchObject({
      instructions: 'Be brief',
      tools,
      tool_choice: 'required',
      temperature: 0.2,
      reasoning: { effort: 'high', summary: null },
      text: { format: { type: 'text' }, verbosity: 'low' },
      metadata: { a: 'b' },
      store: false,
    });
  });
});

describe('responseFromCompletion', () => {
  it('plain text: one completed message', () => {
    const s = shell();
    const response = responseFromCompletion(s, completion({ content: 'Hello there' }));
    expect(response.id).toBe(s.id);
    expect(response.status).toBe('completed');
    expect(response.incomplete_details).toBeNull();
    const output = response.output as JsonObject[];
    expect(output).toHaveLength(1);
    expect(output[0]).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello there' }],
      role: 'assistant',
    });
    expect(response).not.toHaveProperty('output_text');
  });

  it('reasoning then text, sealed when asked', () => {
    const s = shell({ sealReasoning: (text) => `sealed:${text}` });
    const output = responseFromCompletion(s, completion({ content: '42', reasoning_content: 'Let me think' })).output as JsonObject[];
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(output[0]).toEqual({
      id: expect.stringMatching(/^rs_/),
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Let me think' }],
      encrypted_content: 'sealed:Let me think',
    });
    const unsealed = responseFromCompletion(shell(), completion({ content: '42', reasoning_content: 'Let me think' }))
      .output as JsonObject[];
    expect(unsealed[0]).not.toHaveProperty('encrypted_content');
  });

  it('one tool call, no text: a function_call item only', () => {
    const toolCalls = [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }];
    const response = responseFromCompletion(shell(), completion({ content: null, tool_calls: toolCalls }, 'tool_calls'));
    expect(response.status).toBe('completed');
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        arguments: '{"city":"Paris"}',
        call_id: 'call_abc',
        name: 'get_weather',
      },
    ]);
  });

  it('two parallel tool calls after text, in order, namespaces named again', () => {
    const toolCalls = [
      { id: 'call_1', type: 'function', function: { name: 'a', arguments: '{}' } },
      { id: 'call_2', type: 'function', function: { name: 'b', arguments: '{"x":1}' } },
    ];
    const s = shell({ namespaces: new Map([['b', 'ns']]) });
    const output = responseFromCompletion(s, completion({ content: 'Calling both', tool_calls: toolCalls }, 'tool_calls'))
      .output as JsonObject[];
    expect(output.map((item) => [item.type, item.call_id, item.name, item.arguments])).toEqual([
      ['message', undefined, undefined, undefined],
      ['function_call', 'call_1', 'a', '{}'],
      ['function_call', 'call_2', 'b', '{"x":1}'],
    ]);
    expect(output[1]).not.toHaveProperty('namespace');
    expect(output[2]?.namespace).toBe('ns');
    expect(new Set(output.map((item) => item.id)).size).toBe(3);
  });

  it('length: incomplete for max_output_tokens, the cut item too', () => {
    const response = responseFromCompletion(shell(), completion({ content: 'Once upon a' }, 'length'));
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.completed_at).toBeNull();
    expect((response.output as JsonObject[])[0]?.status).toBe('incomplete');
  });

  it('content_filter: incomplete for content_filter', () => {
    const response = responseFromCompletion(shell(), completion({ content: 'x' }, 'content_filter'));
    expect(response.incomplete_details).toEqual({ reason: 'content_filter' });
  });

  it('empty text makes no message item', () => {
    expect(responseFromCompletion(shell(), completion({ content: '' })).output).toEqual([]);
  });

  it('maps usage into the Responses shape, the gateway’s counts first', () => {
    const expected = {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 64 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 25 },
      total_tokens: 140,
    };
    expect(responseFromCompletion(shell(), completion({ content: 'hi' })).usage).toEqual(expected);
    const counted = { prompt_tokens: 10, cached_tokens: 0, completion_tokens: 5, reasoning_tokens: 0 };
    expect(responseFromCompletion(shell(), completion({ content: 'hi' }), counted).usage).toEqual(responseUsage(counted));
    expect(responseUsage(counted)).toEqual({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    });
  });
});
