import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  PROMPT_HOLD_CONSTANT,
  PROMPT_HOLD_FACTOR,
  TOOLS_HOLD_CONSTANT,
  WIDE_PROMPT_HOLD_FACTOR,
  TokenMemo,
  countCompletionTokens,
  countPromptTokens,
  countTextTokens,
  holdPromptTokens,
  promptHoldTokens,
  promptMemo,
} from '@gateway/tokenizer';

const base = { model: 'm', messages: [{ role: 'user', content: 'Hello' }] };
const prompt = (body: Record<string, unknown>): number => countPromptTokens(body).tokens;

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_current_weather',
    description: 'Get the current weather in a given location',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' } },
      required: ['location'],
    },
  },
};

describe('countTextTokens (o200k_base)', () => {
  it('counts known strings', () => {
    expect(countTextTokens('')).toBe(0);
    expect(countTextTokens('hello world')).toBe(2);
    expect(countTextTokens('tiktoken is great!')).toBe(6);
    expect(countTextTokens('2 + 2 = 4')).toBe(7);
  });

  it('counts special-token text as text instead of throwing', () => {
    expect(countTextTokens('<|endoftext|> hi')).toBeGreaterThan(2);
  });
});

describe('countPromptTokens', () => {
  it('matches the OpenAI cookbook figure for gpt-4o (124 prompt tokens)', () => {
    const messages = [
      { role: 'system', content: 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.' },
      { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
      { role: 'system', name: 'example_assistant', content: 'Things working well together will increase revenue.' },
      {
        role: 'system',
        name: 'example_user',
        content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
      },
      { role: 'system', name: 'example_assistant', content: "Let's talk later when we're less busy about how to do better." },
      { role: 'user', content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
    ];
    expect(countPromptTokens({ messages })).toEqual({ tokens: 124, wideTokens: 0, images: 0, tools: 0 });
  });

  it('counts a one-message body as 3 per message + role + text + 3 priming', () => {
    expect(countPromptTokens(base)).toEqual({ tokens: 8, wideTokens: 0, images: 0, tools: 0 });
  });

  it('counts text parts and names', () => {
    const parts = { messages: [{ role: 'user', name: 'ann', content: [{ type: 'text', text: 'hello world' }] }] };
    expect(prompt(parts)).toBe(3 + 1 + 2 + 1 + countTextTokens('ann') + 3);
  });

  it('adds about their own tokens for tools, tool calls, tool results, tool_choice and response_format', () => {
    const args = JSON.stringify({ location: 'Paris, France', unit: 'celsius' });
    const call = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_current_weather', arguments: args } }],
    };
    const withCall = prompt({ messages: [...base.messages, call] });
    expect(withCall - prompt(base)).toBe(3 + 1 + 8 + countTextTokens('get_current_weather') + countTextTokens(args));

    const result = { role: 'tool', tool_call_id: 'call_abc', content: 'Sunny, 21 C' };
    expect(prompt({ messages: [...base.messages, result] }) - prompt(base)).toBe(
      3 + 1 + countTextTokens('call_abc') + countTextTokens('Sunny, 21 C'),
    );

    const toolsJson = countTextTokens(JSON.stringify([weatherTool]));
    expect(prompt({ ...base, tools: [weatherTool] }) - prompt(base)).toBe(12 + 7 + toolsJson);

    const choice = { type: 'function', function: { name: 'get_current_weather' } };
    expect(prompt({ ...base, tool_choice: choice }) - prompt(base)).toBe(countTextTokens(JSON.stringify(choice)));
    expect(prompt({ ...base, tool_choice: 'auto' })).toBe(prompt(base));

    const schema = { name: 'answer', schema: { type: 'object', properties: { answer: { type: 'string' } }, additionalProperties: false } };
    expect(prompt({ ...base, response_format: { type: 'json_schema', json_schema: schema } }) - prompt(base)).toBe(
      countTextTokens(JSON.stringify(schema)),
    );
  });

  it('counts image parts apart from text', () => {
    const content = [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
    ];
    const count = countPromptTokens({ messages: [{ role: 'user', content }] });
    expect(count.images).toBe(2);
    expect(count.tokens).toBe(3 + 1 + countTextTokens('What is this?') + 3);
  });

  it('gives the same count warm as cold, for long texts and for runs of short ones', () => {
    const history = Array.from({ length: 120 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `Turn ${i}: ${'words here '.repeat(i % 7)}`,
    }));
    const tools = Array.from({ length: 30 }, (_, i) => ({ ...weatherTool, function: { ...weatherTool.function, name: `tool_${i}` } }));
    const body = { messages: [...history, { role: 'tool', tool_call_id: 'x', content: 'log line\n'.repeat(400) }], tools };
    promptMemo.clear();
    const cold = countPromptTokens(body);
    expect(promptMemo.stats.entries).toBeGreaterThan(1);
    expect(countPromptTokens(structuredClone(body))).toEqual(cold);
    // A history that grows by one turn is counted exactly as it would be cold.
    const grown = { ...body, messages: [...body.messages, { role: 'user', content: 'next' }] };
    const warmGrown = countPromptTokens(grown);
    promptMemo.clear();
    expect(countPromptTokens(grown)).toEqual(warmGrown);
  });

  it('never throws on odd shapes', () => {
    const odd: unknown[] = [
      {},
      { messages: 'nope' },
      { messages: [null, 1, 'x', [], { role: 5, content: { a: 1 } }, { role: 'user', content: [null, 3, { type: 'text', text: 9 }] }] },
      { messages: [{ role: 'assistant', tool_calls: [null, { function: null }, { function: { name: 1, arguments: { deep: [1, 2] } } }] }] },
      {
        messages: [{ role: 'user', content: '<|endoftext|>\u0000'.repeat(200) }],
        tools: 'x',
        tool_choice: [],
        response_format: { json_schema: 'x' },
      },
      { tools: [1n] },
    ];
    for (const body of odd) expect(() => countPromptTokens(body as Record<string, unknown>)).not.toThrow();
    expect(countPromptTokens(null as unknown as Record<string, unknown>)).toEqual({ tokens: 0, wideTokens: 0, images: 0, tools: 0 });
  });
});

describe('countCompletionTokens', () => {
  it('sums the parts', () => {
    expect(countCompletionTokens(['hello world', '', 'tiktoken is great!'])).toBe(8);
    expect(countCompletionTokens([])).toBe(0);
  });
});

describe('TokenMemo', () => {
  it('returns cold counts and stays within its byte bound, least recently used out first', () => {
    const memo = new TokenMemo(10_000, 8);
    const a = 'a fairly long text '.repeat(100); // 1,900 chars, 3,800 bytes
    const b = 'another long text! '.repeat(100);
    const c = 'third long text... '.repeat(100);
    expect(memo.count(a)).toBe(countTextTokens(a));
    memo.count(b);
    memo.count(a); // a is now the most recent
    memo.count(c); // over 10,000 bytes: b goes
    expect(memo.stats).toEqual({ entries: 2, bytes: 7_600 });
    expect(memo.count(a)).toBe(countTextTokens(a));
    expect(memo.count('short')).toBe(1);
    expect(memo.stats.entries).toBe(2);
  });
});

describe('promptHoldTokens', () => {
  it('multiplies the count, adds the constant and the images', () => {
    expect(promptHoldTokens({ tokens: 100, wideTokens: 0, images: 2, tools: 0 }, 765)).toBe(
      Math.ceil(100 * PROMPT_HOLD_FACTOR) + PROMPT_HOLD_CONSTANT + 1530,
    );
    expect(promptHoldTokens({ tokens: 100, wideTokens: 40, images: 0, tools: 3 }, 765)).toBe(
      Math.ceil(60 * PROMPT_HOLD_FACTOR + 40 * WIDE_PROMPT_HOLD_FACTOR) + PROMPT_HOLD_CONSTANT + TOOLS_HOLD_CONSTANT,
    );
  });

  it('raises texts beyond ASCII by the wider factor', () => {
    const hindi = countPromptTokens({ messages: [{ role: 'user', content: 'नमस्ते, आप कैसे हैं? मुझे गेटवे के बारे में बताइए।' }] });
    expect(hindi.wideTokens).toBeGreaterThan(0);
    const english = countPromptTokens({ messages: [{ role: 'user', content: 'Hello, how are you? Tell me about the gateway.' }] });
    expect(english.wideTokens).toBe(0);
  });
});

describe('holdPromptTokens', () => {
  it('holds a small prompt on its bytes, above any byte-level tokenizer', () => {
    const body = { messages: [{ role: 'user', content: 'Hello there' }] };
    // 3 priming + 3 per message + 1 for the role, then the text's 11 bytes.
    expect(holdPromptTokens(body, 1500)).toBe(3 + 3 + 1 + 11);
    const hindi = { messages: [{ role: 'user', content: 'नमस्ते' }] };
    expect(holdPromptTokens(hindi, 1500)).toBe(7 + Buffer.byteLength('नमस्ते'));
  });

  it('counts a large prompt with the tokenizer, raised by the factors', () => {
    const text = 'Read the repository, plan the change, run the tests, and report. '.repeat(60);
    const body = { messages: [{ role: 'system', content: text }] };
    const count = countPromptTokens(body);
    expect(holdPromptTokens(body, 1500)).toBe(promptHoldTokens(count, 1500));
    expect(holdPromptTokens(body, 1500)).toBeLessThan(Buffer.byteLength(text));
  });

  it('counts every role as one token of o200k', () => {
    for (const role of ['system', 'developer', 'user', 'assistant', 'tool', 'function']) expect(countTextTokens(role)).toBe(1);
  });
});

describe('the encoding', () => {
  it('is loaded only when a text is counted: a gateway of small prompts never holds its tables', () => {
    const entry = new URL('../dist/index.js', import.meta.url).href;
    const script = `const t = await import(${JSON.stringify(entry)});
      t.holdPromptTokens({ messages: [{ role: 'user', content: 'Hello' }] }, 1500);
      const before = t.tokenizerLoaded();
      t.countTextTokens('Hello');
      console.log(JSON.stringify([before, t.tokenizerLoaded()]));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([false, true]);
  });
});
