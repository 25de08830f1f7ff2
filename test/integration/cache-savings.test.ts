import { encodeSpendEvent, type SpendEvent, spendSubject } from '@gateway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The public views of prompt-cache savings and estimated billing, against a running one-process
// gateway: chat spend events carrying cached tokens, a saving and the estimate flag (published
// on the gateway's own bus, as the chat service does) show in the admin spend log and daily
// spend, the overview, and the key's /v1/usage and /v1/usage/logs, as USD and token counts.

let gateway: TestGateway;
let key: { id: string; key: string };
const today = () => new Date().toISOString().slice(0, 10);

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  gateway = await startTestGateway();
  key = await gateway.createKey({ name: 'cache', models: ['*'] });
  const now = Date.now();
  const events: SpendEvent[] = [
    {
      id: 'chatcmpl-cache-hit',
      kind: 'chat',
      key_id: key.id,
      group: 'gamma-flash',
      cost_nano_usd: 2_000,
      occurred_at: now - 2,
      usage: { prompt_tokens: 1000, completion_tokens: 10, cached_tokens: 800 },
      cache_saved_nano_usd: 1_500,
    },
    {
      id: 'chatcmpl-estimated',
      kind: 'chat',
      key_id: key.id,
      group: 'gamma-flash',
      cost_nano_usd: 500,
      occurred_at: now - 1,
      usage: { prompt_tokens: 20, completion_tokens: 30 },
      estimated: true,
    },
  ];
  for (const event of events) await gateway.bus.publish(spendSubject('chat'), event.id, event, encodeSpendEvent);
  await eventually(async () => (await json<{ data: unknown[] }>(await gateway.call('/v1/usage/logs', key.key))).data.length === 2, 5000);
});
afterAll(async () => {
  await stopTestGateway(gateway);
});

interface LogRow {
  id: string;
  cost_usd: number;
  usage: Record<string, number>;
  cached_tokens: number;
  cache_saved_usd: number;
  estimated: boolean;
}

describe('cached tokens, cache savings and estimates in the public views', () => {
  it('spend-log rows carry cached_tokens, cache_saved_usd and estimated, admin and key alike', async () => {
    const admin = await json<{ data: LogRow[] }>(await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${key.id}`));
    const own = await json<{ data: LogRow[] }>(await gateway.call('/v1/usage/logs', key.key));
    for (const rows of [admin.data, own.data]) {
      expect(rows).toMatchObject([
        { id: 'chatcmpl-estimated', cost_usd: 0.0000005, cached_tokens: 0, cache_saved_usd: 0, estimated: true },
        {
          id: 'chatcmpl-cache-hit',
          cost_usd: 0.000002,
          usage: { prompt_tokens: 1000, completion_tokens: 10, cached_tokens: 800 },
          cached_tokens: 800,
          cache_saved_usd: 0.0000015,
          estimated: false,
        },
      ]);
    }
  });

  it('daily spend sums cached_tokens and cache_saved_usd', async () => {
    const daily = await json<{ data: unknown[] }>(
      await gateway.admin('GET', `/admin/v1/spend/daily?key_id=${key.id}&from=${today()}&to=${today()}`),
    );
    expect(daily.data).toEqual([
      { date: today(), group: 'gamma-flash', spend_usd: 0.0000025, requests: 2, cached_tokens: 800, cache_saved_usd: 0.0000015 },
    ]);
  });

  it("/v1/usage shows them per model, per day and in total for the key's period", async () => {
    const usage = await json<{
      by_model: unknown[];
      daily: { date: string }[];
      cached_tokens: number;
      cache_saved_usd: number;
    }>(await gateway.call('/v1/usage', key.key));
    expect(usage.by_model).toEqual([
      { model: 'gamma-flash', spent_usd: 0.0000025, requests: 2, cached_tokens: 800, cache_saved_usd: 0.0000015 },
    ]);
    expect([usage.cached_tokens, usage.cache_saved_usd]).toEqual([800, 0.0000015]);
    expect(usage.daily.at(-1)).toEqual({
      date: today(),
      spend_usd: 0.0000025,
      requests: 2,
      cached_tokens: 800,
      cache_saved_usd: 0.0000015,
    });
    expect(usage.daily[0]).toMatchObject({ cached_tokens: 0, cache_saved_usd: 0 });
  });

  it("the overview counts today's cached tokens and this month's saving", async () => {
    const overview = await json<{ spend: Record<string, number> }>(await gateway.admin('GET', '/admin/v1/overview'));
    expect(overview.spend).toMatchObject({ requests_today: 2, cached_tokens_today: 800, cache_saved_month_usd: 0.0000015 });
  });
});
