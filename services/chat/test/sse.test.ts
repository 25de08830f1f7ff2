import { describe, expect, it } from 'vitest';
import { sseData } from '../src/upstream/sse.js';

async function collect(parts: string[]): Promise<string[]> {
  async function* source() {
    for (const part of parts) yield Buffer.from(part);
  }
  const out: string[] = [];
  for await (const data of sseData(source())) out.push(data);
  return out;
}

describe('sseData', () => {
  it("yields each event's data across arbitrary chunk boundaries, CRLF and comments", async () => {
    const text = ': keep-alive\n\ndata: {"a":1}\n\ndata:{"b":2}\r\n\r\nevent: x\ndata: line1\ndata: line2\n\ndata: [DONE]\n\n';
    for (const size of [1, 2, 3, 7, 1000]) {
      const parts: string[] = [];
      for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
      expect(await collect(parts)).toEqual(['{"a":1}', '{"b":2}', 'line1\nline2', '[DONE]']);
    }
  });

  it('keeps multi-byte characters split between chunks intact', async () => {
    const bytes = Buffer.from('data: {"t":"héllo ✓"}\n\n');
    async function* source() {
      for (let i = 0; i < bytes.length; i += 1) yield bytes.subarray(i, i + 1);
    }
    const out: string[] = [];
    for await (const data of sseData(source())) out.push(data);
    expect(out).toEqual(['{"t":"héllo ✓"}']);
  });

  it('yields a last event that lacks its blank line', async () => {
    expect(await collect(['data: {"x":1}'])).toEqual(['{"x":1}']);
  });
});
