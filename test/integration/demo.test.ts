import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The first run without any vendor account: the shipped example configuration's demo-chat
// group answers inside the gateway, through the same routing, budgets and metering.

let gateway: TestGateway;
let client: OpenAI;
let keyId: string;
let secret: string;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { DEEPSEEK_API_KEY: '' } });
  ({ id: keyId, key: secret } = await gateway.createKey({ models: ['*'], budget_usd: 1 }));
  client = new OpenAI({ apiKey: secret, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => stopTestGateway(gateway));

const spent = async () => ((await (await gateway.admin('GET', `/admin/v1/keys/${keyId}`)).json()) as { spent_usd: number }).spent_usd;

describe('the demo provider', () => {
  it('is, with demo-video, served with no credential at all', async () => {
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(['demo-chat', 'demo-video']);
  });

  it('answers a chat completion deterministically, with real usage, billed like any call', async () => {
    const ask = () => client.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'Hello gateway' }] });
    const first = await ask();
    const second = await ask();
    expect(first.model).toBe('demo-chat');
    expect(first.id).toMatch(/^chatcmpl-/);
    expect(first.choices[0]?.message.content).toContain('"Hello gateway"');
    expect(first.choices[0]?.message.content).toBe(second.choices[0]?.message.content);
    expect(first.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(first.usage?.completion_tokens).toBeGreaterThan(0);
    await eventually(async () => (await spent()) > 0);
    const logs = (await (await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${keyId}`)).json()) as { data: { id: string }[] };
    expect(logs.data.map((r) => r.id)).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it('streams the same answer in spaced chunks, with usage when asked', async () => {
    const plain = await client.chat.completions.create({ model: 'demo', messages: [{ role: 'user', content: 'Stream please' }] });
    const stream = await client.chat.completions.create({
      model: 'demo',
      messages: [{ role: 'user', content: 'Stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | undefined;
    const arrivals: number[] = [];
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content;
      if (piece) {
        text += piece;
        chunks += 1;
        arrivals.push(Date.now());
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(plain.choices[0]?.message.content);
    expect(chunks).toBeGreaterThan(3);
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(30);
    expect(usage).toMatchObject({ prompt_tokens: plain.usage?.prompt_tokens, completion_tokens: plain.usage?.completion_tokens });
  });

  it('thinks aloud when reasoning is asked for, and counts images in the prompt', async () => {
    const reasoned = await client.chat.completions.create({
      model: 'demo-chat',
      messages: [{ role: 'user', content: 'Think first' }],
      reasoning_effort: 'medium',
    });
    const message = reasoned.choices[0]?.message as unknown as { reasoning_content?: string };
    expect(message.reasoning_content).toBeTruthy();
    expect(reasoned.usage?.completion_tokens_details?.reasoning_tokens).toBeGreaterThan(0);
    const text = await client.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'Look' }] });
    const withImage = await client.chat.completions.create({
      model: 'demo-chat',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          ],
        },
      ],
    });
    expect((withImage.usage?.prompt_tokens ?? 0) - (text.usage?.prompt_tokens ?? 0)).toBe(85);
    expect(withImage.choices[0]?.message.content).toContain('1 image');
  });
});
