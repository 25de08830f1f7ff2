import { parseConfig } from '@gateway/config';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// An operator who keeps no Responses API responses at all (`responses.store: false`): every
// key's `store` defaults to false, `store: true` is refused naming it, and nothing can be read
// back or continued; stateless turns still work.

let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gateway = await startTestGateway({
    config: parseConfig(
      `
groups:
  - id: demo-chat
    mode: chat
    max_input_tokens: 262144
    max_output_tokens: 1024
    price: { input_per_mtok: 0.01, output_per_mtok: 0.02 }
    deployments: [{ provider: demo, model: demo-chat }]
responses: { store: false }
`,
      'responses-storage-off-test',
    ),
  });
  const { key } = await gateway.createKey({ name: 'k', models: ['*'], budget_usd: 1 });
  client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await stopTestGateway(gateway);
});

describe('responses.store: false', () => {
  it('answers without keeping anything: store false, nothing to retrieve or continue', async () => {
    const response = await client.responses.create({ model: 'demo-chat', input: 'Hello' });
    expect((response as { store?: boolean }).store).toBe(false);
    await expect(client.responses.retrieve(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(client.responses.inputItems.list(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const continued = await client.responses
      .create({ model: 'demo-chat', input: 'again', previous_response_id: response.id })
      .catch((error: unknown) => error);
    expect(continued).toBeInstanceOf(OpenAI.NotFoundError);
    expect((continued as InstanceType<typeof OpenAI.NotFoundError>).param).toBe('previous_response_id');
  });

  it('refuses store: true, naming it', async () => {
    const refused = await client.responses.create({ model: 'demo-chat', input: 'keep me', store: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((refused as InstanceType<typeof OpenAI.UnprocessableEntityError>).param).toBe('store');
  });

  it('still runs a stateless conversation, the history sent each turn', async () => {
    const first = await client.responses.create({ model: 'demo-chat', input: 'First', store: false });
    const second = await client.responses.create({
      model: 'demo-chat',
      store: false,
      input: [{ role: 'user', content: 'First' }, ...first.output, { role: 'user', content: 'Second' }] as OpenAI.Responses.ResponseInput,
    });
    expect(second.output_text).toContain('Second');
  });
});
