import { describe, expect, it } from 'vitest';
import { folderText, startTestGateway, stopTestGateway } from '../helpers/gateway.js';

describe('readiness', () => {
  it('turns 503 naming the service when a downstream service stops', async () => {
    const gateway = await startTestGateway();
    try {
      expect((await gateway.call('/health/readiness')).status).toBe(200);
      await gateway.chat.close();
      const response = await gateway.call('/health/readiness');
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        status: 'unavailable',
        checks: { bus: 'up', accounting: 'up', chat: 'unreachable', video: 'up' },
        down: ['chat'],
      });
    } finally {
      await stopTestGateway(gateway);
    }
  });

  it('turns 503 when the store goes away', async () => {
    const gateway = await startTestGateway();
    try {
      await gateway.store.close();
      const body = (await (await gateway.call('/health/readiness')).json()) as { down: string[]; checks: Record<string, string> };
      expect(body.down).toEqual(['accounting', 'video']);
      expect(body.checks.accounting).toBe('not_serving');
    } finally {
      await stopTestGateway(gateway);
    }
  });
});

describe('restart', () => {
  it('keeps keys and spend across a restart of the embedded store, with no secret on disk', async () => {
    const first = await startTestGateway();
    const { key } = await first.createKey({ models: ['*'], budget_usd: 3 });
    await stopTestGateway(first, { keepData: true });

    const second = await startTestGateway({ dataDir: first.dataDir });
    try {
      const usage = await second.call('/v1/usage', key);
      expect(usage.status).toBe(200);
      expect(((await usage.json()) as { budget: { limit_usd: number } }).budget.limit_usd).toBe(3);
      const stored = await folderText(second.dataDir);
      expect(stored).toContain('"hash"');
      expect(stored).not.toContain(key.slice(3));
    } finally {
      await stopTestGateway(second);
    }
  });
});
