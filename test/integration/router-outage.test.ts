import { parseConfig } from '@gateway/config';
import { ChatSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Upstream failure bursts through the whole gateway: the router never turns them into an outage
// of its own (a 503 no_healthy_upstream while the upstream is back), a 429's Retry-After is
// honoured for exactly that long, and a sick deployment beside a healthy one is cooled down.

const solo = new ChatSimulator({ flavor: 'openai', credential: 'k', models: ['m'], record: true });
const sick = new ChatSimulator({ flavor: 'openai', credential: 'k', models: ['m'], record: true });
const well = new ChatSimulator({ flavor: 'openai', credential: 'k', models: ['m'], record: true });

function config(soloUrl: string, sickUrl: string, wellUrl: string): string {
  const group = (id: string, urls: string[]) => `
  - id: ${id}
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments:
${urls.map((url) => `      - { provider: openai, model: m, api_base: "${url}/v1", api_key_env: SIM_KEY }`).join('\n')}`;
  // The defaults that made the outage: 3 failures in a row cool a deployment for 30 s.
  return `groups:${group('solo', [soloUrl])}${group('pair', [sickUrl, wellUrl])}
router: { retries: 1, allowed_fails: 3, cooldown_seconds: 30 }
`;
}

let gateway: TestGateway;
let key: string;

beforeAll(async () => {
  const [a, b, c] = [await solo.listen(), await sick.listen(), await well.listen()];
  gateway = await startTestGateway({ config: parseConfig(config(a, b, c), 'router-outage-test'), env: { SIM_KEY: 'k' } });
  ({ key } = await gateway.createKey({ models: ['*'], budget_usd: 10 }));
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await Promise.all([solo.close(), sick.close(), well.close()]);
});

const chat = (model: string) =>
  gateway.call('/v1/chat/completions', key, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }] }),
  });

describe('no outage of the gateway’s own making', () => {
  it('passes a burst of 500s on a group’s only deployment through, and serves the moment the upstream is back', async () => {
    solo.fail(...Array.from({ length: 10 }, () => ({ status: 500 })));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await chat('solo');
      statuses.push(response.status);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('upstream_error');
    }
    // Ten upstream failures (two attempts a call), each answered as the upstream's failure: no 503.
    expect(statuses).toEqual([502, 502, 502, 502, 502]);
    expect(solo.requests).toHaveLength(10);
    // Recovered: the very next call is served, no 30 s cooldown to sit out.
    expect((await chat('solo')).status).toBe(200);
  });

  it('answers a 429 with Retry-After as 429, does not call the upstream again within the pause, and serves after it', async () => {
    const before = solo.requests.length;
    solo.fail({ status: 429, retryAfter: 1 });
    const limited = await chat('solo');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('upstream_rate_limited');
    const again = await chat('solo');
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await again.text();
    // One upstream request: neither the retry nor the second caller knocked during the pause.
    expect(solo.requests.length - before).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await chat('solo')).status).toBe(200);
  });

  it('cools a sick deployment beside a healthy one, and the healthy one serves every call', async () => {
    sick.fail(...Array.from({ length: 50 }, () => ({ status: 500 })));
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await chat('pair')).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    // At most allowed_fails (3) calls reached the sick one before it was cooled down.
    expect(sick.requests.length).toBeLessThanOrEqual(3);
    expect(well.requests.length).toBe(12);
  });
});
