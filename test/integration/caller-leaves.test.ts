import { parseConfig } from '@gateway/config';
import { VideoSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// A caller that leaves cancels the calls its request made, unary ones too: the edge cancels its
// gRPC call when the HTTP connection closes before the answer, the video service's call signal
// aborts, and with it the provider's create (the simulator sees its request abandoned), so no
// task is made that nobody will learn of, and the held price goes back.

const ark = new VideoSimulator({ protocol: 'ark', credential: 'ark-credential', models: ['seedance-sim'] });
let gateway: TestGateway;

beforeAll(async () => {
  const url = await ark.listen();
  const config = parseConfig(
    `
groups:
  - id: beta-dance
    mode: video
    video: { resolutions: [480p], default_resolution: 480p, seconds: [4, 10], ratios: ["16:9"], image_input: none }
    price: { per_mtok_by_resolution: { 480p: 10.70 } }
    deployments: [{ provider: ark, model: seedance-sim, api_base: "${url}/api/v3", api_key_env: ARK_KEY }]
video: { timeout_ms: 20000 }
`,
    'caller-leaves',
  );
  gateway = await startTestGateway({ config, env: { ARK_KEY: 'ark-credential' } });
});

afterAll(async () => {
  await stopTestGateway(gateway);
  await ark.close();
});

describe('a caller that leaves', () => {
  it('cancels a video create in flight: the provider sees it abandoned, no task is made, nothing stays held', async () => {
    const { id, key } = await gateway.createKey({ models: ['beta-dance'], budget_usd: 10 });
    ark.delays.create = 10_000;
    const controller = new AbortController();
    const request = gateway
      .call('/v1/videos', key, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'beta-dance', prompt: 'left before the answer', seconds: 4 }),
        signal: controller.signal,
      })
      .catch(() => undefined);
    try {
      // The create has reached the provider, which holds it back.
      await eventually(async () => ark.requests.some((r) => r.method === 'POST'), 5000);
      const left = performance.now();
      controller.abort();
      await request;
      await expect.poll(() => ark.abandoned, { timeout: 3000 }).toBe(1);
      const cancelledMs = performance.now() - left;
      expect(ark.createdTasks).toBe(0);
      expect(cancelledMs).toBeLessThan(1000);
      // The hold taken before the provider's call went back.
      await eventually(async () => {
        const body = (await (await gateway.admin('GET', `/admin/v1/keys/${id}`)).json()) as { reserved_usd: number; spent_usd: number };
        return body.reserved_usd === 0 && body.spent_usd === 0;
      }, 5000);
      expect(gateway.logs.join('')).toContain('video create abandoned');
    } finally {
      ark.delays.create = 0;
    }
  });
});
