import { describe, expect, it } from 'vitest';
import { folderText, startTestGateway, stopTestGateway } from '../helpers/gateway.js';

describe('readiness', () => {
  it('stays ready, degraded and naming it, while one of chat and video is down; 503 once both are', async () => {
    const gateway = await startTestGateway();
    try {
      expect((await gateway.call('/health/readiness')).status).toBe(200);
      await gateway.chat.close();
      const response = await gateway.call('/health/readiness');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        status: 'degraded',
        checks: { bus: 'up', accounting: 'up', chat: 'unreachable', video: 'up' },
        down: ['chat'],
      });
      await gateway.video.close();
      const none = await gateway.call('/health/readiness');
      expect(none.status).toBe(503);
      expect(await none.json()).toMatchObject({ status: 'unavailable', down: ['chat', 'video'] });
    } finally {
      await stopTestGateway(gateway);
    }
  });

  it('turns 503 when the store goes away (no key can be authenticated)', async () => {
    const gateway = await startTestGateway();
    try {
      await gateway.store.close();
      const response = await gateway.call('/health/readiness');
      expect(response.status).toBe(503);
      const body = (await response.json()) as { down: string[]; checks: Record<string, string> };
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
