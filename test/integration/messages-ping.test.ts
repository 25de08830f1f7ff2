import { parseConfig } from '@gateway/config';
import { ChatSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// An Anthropic Messages stream that goes quiet (an upstream thinking before its last chunk)
// keeps its connection alive with `ping` events, as Anthropic's API does, so a proxy in front
// does not close it; a lively stream gets none.

const sim = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'] });
let gateway: TestGateway;
let key: string;

beforeAll(async () => {
  const url = await sim.listen();
  gateway = await startTestGateway({
    config: parseConfig(
      `
groups:
  - id: quiet
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${url}/v1", api_key_env: OA_KEY }]
server: { ping_interval_ms: 100 }
`,
      'messages-ping-test',
    ),
    env: { OA_KEY: 'oa-credential' },
  });
  ({ key } = await gateway.createKey({ models: ['*'], budget_usd: 1 }));
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await sim.close();
});

async function eventsOf(): Promise<string[]> {
  const response = await gateway.call('/v1/messages', undefined, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'quiet', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Take your time' }] }),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  return [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1] as string);
}

describe('ping on a quiet Messages stream', () => {
  it('writes ping events while the upstream is quiet, between the text and the end', async () => {
    sim.fail({ usageDelayMs: 450 });
    const events = await eventsOf();
    const pings = events.filter((event) => event === 'ping').length;
    expect(pings).toBeGreaterThanOrEqual(2);
    expect(events.indexOf('ping')).toBeGreaterThan(events.indexOf('content_block_delta'));
    expect(events.at(-1)).toBe('message_stop');
  });

  it('writes none on a stream that is never quiet that long', async () => {
    expect(await eventsOf()).not.toContain('ping');
  });
});
