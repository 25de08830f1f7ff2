import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus } from '@gateway/bus';
import { VideoClient, videoJobStatus } from '@gateway/contracts';
import { parseConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { silentLogger } from '@gateway/logging';
import { VideoSimulator } from '@gateway/simulators';
import { SqliteStore } from '@gateway/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVideoApp, type VideoApp } from '../src/index.js';

// The video service under its callers' deadlines, over grpc-js as between processes: a GET whose
// provider refresh overruns answers from the stored record in time (the refresh goes on and
// updates the record), and a create whose caller leaves ends the provider's call with it.

const ark = new VideoSimulator({ protocol: 'ark', credential: 'k', models: ['seedance'], queuedPolls: 0, runningPolls: 1 });
let dir: string;
let store: SqliteStore;
let bus: InProcessBus;
let app: VideoApp;
let client: VideoClient;

beforeAll(async () => {
  const url = await ark.listen();
  dir = await mkdtemp(join(tmpdir(), 'gateway-video-deadlines-'));
  store = new SqliteStore(dir);
  bus = new InProcessBus();
  const config = parseConfig(
    `
groups:
  - id: beta-dance
    mode: video
    video: { resolutions: [480p, 720p], default_resolution: 480p, seconds: [4, 10], ratios: ["16:9"], image_input: none }
    price: { per_mtok_by_resolution: { 480p: 10.70, 720p: 10.70 } }
    deployments: [{ provider: ark, model: seedance, api_base: "${url}/api/v3", api_key_env: ARK }]
video: { poll_interval_ms: 50, timeout_ms: 10000 }
`,
    'video-deadlines',
  );
  // No poller: only the GET refreshes the job, so the test knows which call waits on the provider.
  app = await buildVideoApp({ config, store, bus, logger: silentLogger(), env: { ARK: 'k' }, poller: false });
  const port = await app.server.listen('127.0.0.1:0');
  client = new VideoClient(`127.0.0.1:${port}`);
});

afterAll(async () => {
  client?.close();
  await app?.server.close();
  await app?.stop();
  await bus?.close();
  await store?.close();
  await ark.close();
  await rm(dir, { recursive: true, force: true });
});

const createCall = { keyId: 'key_1', model: 'beta-dance', group: 'beta-dance', prompt: 'p', seconds: '4', resolution: '', ratio: '' };

describe('the video service under its callers’ deadlines', () => {
  it('a GET whose provider refresh overruns its deadline answers from the record; the refresh still updates it', async () => {
    const job = await client.createVideo({ ...createCall, inputReference: '' });
    await new Promise((r) => setTimeout(r, 80));
    ark.delays.query = 1500;
    try {
      const started = performance.now();
      const answered = await client.getVideo('key_1', job.id, { deadlineMs: 600 });
      const ms = performance.now() - started;
      // The stored record, as created: the refresh had not come back.
      expect(videoJobStatus(answered.status)).toBe('queued');
      expect(ms).toBeLessThan(600);
      // The refresh went on in the background (the provider answers after 1.5 s) and moved the record.
      await new Promise((r) => setTimeout(r, 1600));
      ark.delays.query = 0;
      const later = await client.getVideo('key_1', job.id, { deadlineMs: 2000 });
      expect(videoJobStatus(later.status)).not.toBe('queued');
    } finally {
      ark.delays.query = 0;
    }
  });

  it('a create whose caller cancels ends the provider call: no task, the caller hears CANCELLED', async () => {
    const created = ark.createdTasks;
    const abandoned = ark.abandoned;
    ark.delays.create = 3000;
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const failure = await client.createVideo({ ...createCall, inputReference: '' }, { signal: controller.signal }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(GatewayError);
      expect((failure as GatewayError).code).toBe('request_cancelled');
      // The simulator saw its create's connection close before it answered, and created nothing.
      await expect.poll(() => ark.abandoned, { timeout: 2000 }).toBe(abandoned + 1);
      expect(ark.createdTasks).toBe(created);
    } finally {
      ark.delays.create = 0;
    }
  });
});
