import { describe, expect, it } from 'vitest';
import { peekChatFields } from '../src/peek.js';

// The top-level reader must agree with JSON.parse whenever it answers; where it cannot tell it
// answers undefined and the route parses the body fully.

function byParse(text: string): { model: string; stream: boolean } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { model, stream } = body as { model?: unknown; stream?: unknown };
  return typeof model === 'string' && model !== '' ? { model, stream: stream === true } : undefined;
}

const peek = (text: string) => peekChatFields(Buffer.from(text));

describe('peekChatFields', () => {
  it('reads model and stream at the top level, skipping everything else', () => {
    expect(peek('{"model":"gamma-flash","messages":[{"role":"user","content":"Hi"}]}')).toEqual({ model: 'gamma-flash', stream: false });
    expect(peek(' {\n "messages" : [ {"role":"user","content":"x"} ] , "stream" : true , "model" : "flash" }\n')).toEqual({
      model: 'flash',
      stream: true,
    });
    expect(peek('{"model":"m","stream":false}')).toEqual({ model: 'm', stream: false });
    expect(peek('{"model":"m","stream":"true"}')).toEqual({ model: 'm', stream: false });
    expect(peek('{"model":"m","stream":1}')).toEqual({ model: 'm', stream: false });
    expect(peek('{"model":"m","stream":null,"temperature":0.5e-1}')).toEqual({ model: 'm', stream: false });
    // The last of duplicate keys wins, as in JSON.parse.
    expect(peek('{"model":"a","model":"b","stream":true,"stream":false}')).toEqual({ model: 'b', stream: false });
  });

  it('is not fooled by the same names inside nested values or strings', () => {
    const body = JSON.stringify({
      messages: [{ role: 'user', content: 'say "model":"evil", "stream":true', tools: { model: 'x', stream: true } }],
      metadata: { model: 'nested' },
      model: 'real',
    });
    expect(peek(body)).toEqual({ model: 'real', stream: false });
    expect(peek('{"messages":[{"content":"a \\\\"}"}],"model":"m"}')).toEqual(byParse('{"messages":[{"content":"a \\\\"}"}],"model":"m"}'));
  });

  it('leaves to a full parse what it cannot tell', () => {
    for (const text of [
      '{"model":"gamma\\u002dflash"}', // an escape in model
      '{"mod\\u0065l":"m"}', // an escape in a key
      '{"model":42}',
      '{"model":""}',
      '{}',
      '[]',
      '"model"',
      '',
      'not json',
      '{"model":"m"',
      '{"model":"m"} x',
      '{"model" "m"}',
      '{"model":"m",}',
      '{"messages":[1,2}',
      '{"messages":"unterminated}',
    ])
      expect(peek(text), text).toBeUndefined();
  });

  it('agrees with JSON.parse on random bodies', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const words = ['model', 'stream', 'a"b', 'c\\d', '}', '{', '[', ']', ',', ':', 'é', '\n', 'x'];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 2 || r < 0.3) return words[Math.floor(random() * words.length)]! + words[Math.floor(random() * words.length)]!;
      if (r < 0.4) return random() < 0.5;
      if (r < 0.5) return Math.floor(random() * 1e6) / 100;
      if (r < 0.55) return null;
      if (r < 0.8) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [words[Math.floor(random() * words.length)]!, value(depth + 1)]),
      );
    };
    let answered = 0;
    for (let n = 0; n < 2000; n += 1) {
      const body: Record<string, unknown> = {};
      for (let k = 0; k < 1 + Math.floor(random() * 5); k += 1) body[words[Math.floor(random() * words.length)]!] = value(0);
      if (random() < 0.8) body.model = `group-${n}`;
      if (random() < 0.5) body.stream = random() < 0.5 ? true : value(1);
      const text = JSON.stringify(body, null, random() < 0.3 ? 2 : undefined);
      const peeked = peek(text);
      if (peeked !== undefined) {
        answered += 1;
        expect(peeked, text).toEqual(byParse(text));
      }
    }
    expect(answered).toBeGreaterThan(700);
  });
});
