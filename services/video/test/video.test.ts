import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus } from '@gateway/bus';
import { decodeSpendEvent, SPEND_SUBJECTS, videoJobStatus, videoStatusMessage, type SpendEvent } from '@gateway/contracts';
import { parseConfig, type VideoGroupConfig } from '@gateway/config';
import { silentLogger } from '@gateway/logging';
import { VideoSimulator } from '@gateway/simulators';
import { SqliteStore } from '@gateway/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVideoApp, jobMessage } from '../src/index.js';
import { estimatedCost, jobCost } from '../src/domain/pricing.js';
import { TaskRepository, type TaskRecord } from '../src/domain/tasks.js';
import { validateCreate } from '../src/domain/validate.js';
import { minimaxPixels } from '../src/providers/minimax/index.js';
import { videoProviders } from '../src/providers/index.js';

const ark = new VideoSimulator({ protocol: 'ark', credential: 'k', models: ['seedance'], queuedPolls: 0, runningPolls: 1 });
let arkUrl: string;
let dir: string;
beforeAll(async () => {
  arkUrl = await ark.listen();
  dir = await mkdtemp(join(tmpdir(), 'gateway-video-'));
});
afterAll(async () => {
  await ark.close();
  await rm(dir, { recursive: true, force: true });
});

const config = (url: string) =>
  parseConfig(
    `
groups:
  - id: beta-dance
    mode: video
    video: { resolutions: [480p, 720p, 1080p], default_resolution: 720p, seconds: [4, 30], ratios: ["16:9", "4:3", "1:1", "3:4", "9:16", "21:9"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 480p: 10.70, 720p: 10.70, 1080p: 11.70 } }
    deployments: [{ provider: ark, model: seedance, api_base: "${url}/api/v3", api_key_env: ARK }]
video: { poll_interval_ms: 10 }
`,
    'video-unit',
  );

describe('validation and prices', () => {
  const group = config('http://x').groups[0] as VideoGroupConfig;
  const ark = videoProviders.get('ark')!;
  const base = { prompt: 'p', seconds: '5', resolution: '', ratio: '', inputReference: '' };

  it('fills defaults and keeps spelling exact', () => {
    expect(validateCreate(base, group, ark)).toEqual({ prompt: 'p', seconds: 5, resolution: '720p', ratio: '16:9', imageUrl: undefined });
    expect(validateCreate({ ...base, seconds: '8.0' }, group, ark).seconds).toBe(8);
    expect(() => validateCreate({ ...base, resolution: '720P' }, group, ark)).toThrow(expect.objectContaining({ param: 'resolution' }));
    expect(validateCreate({ ...base, ratio: '4:3', inputReference: 'https://x/y.png' }, group, ark)).toMatchObject({
      ratio: undefined,
      imageUrl: 'https://x/y.png',
    });
  });

  it("prices the specification's examples", () => {
    // 5 s at 16:9: 480p about 0.514 USD, 720p about 1.156, 1080p about 2.843 (formula, for reservations).
    expect(estimatedCost(group, '480p', 5, [854, 480])! / 1e9).toBeCloseTo(0.514, 2);
    expect(estimatedCost(group, '720p', 5, [1280, 720])! / 1e9).toBeCloseTo(1.166, 2);
    expect(estimatedCost(group, '1080p', 30, [1920, 1080])! / 1e9).toBeCloseTo(17.06, 1);
    // Billing uses the provider's real count.
    expect(jobCost(group, '720p', 5, { totalTokens: 108_900 })).toBe(108_900 * 10_700);
    expect(minimaxPixels('768P', '16:9')).toEqual([1366, 768]);
    expect(minimaxPixels('2K', '9:16')).toEqual([1440, 2560]);
  });
});

describe('several video replicas', () => {
  it('bill a job once however many pollers race for it', async () => {
    const store = new SqliteStore(dir);
    const bus = new InProcessBus();
    const events: SpendEvent[] = [];
    await bus.consume<unknown>(SPEND_SUBJECTS, 'count', async (event) => {
      events.push(decodeSpendEvent(event.data, event.subject));
    });
    // Count publications too: the bus would hide a second one behind its duplicate window.
    const published: string[] = [];
    const publish = bus.publish.bind(bus);
    bus.publish = async (subject, id, data) => {
      published.push(id);
      await publish(subject, id, data);
    };
    const deps = { config: config(arkUrl), store, bus, logger: silentLogger(), env: { ARK: 'k' }, poller: false };
    const replicas = await Promise.all([buildVideoApp(deps), buildVideoApp(deps), buildVideoApp(deps)]);
    const first = replicas[0]!;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const task = await first.jobs.create('key_1', 'beta-dance', 'beta-dance', {
        prompt: `p${i}`,
        seconds: '4',
        resolution: '480p',
        ratio: '',
        inputReference: '',
      });
      ids.push(task._id);
    }
    for (let round = 0; round < 10; round += 1) {
      await new Promise((r) => setTimeout(r, 15));
      await Promise.all(replicas.map((r) => r.jobs.pollOnce()));
      await Promise.all(ids.map((id) => replicas[round % 3]!.jobs.get('key_1', id)));
    }
    await new Promise((r) => setTimeout(r, 50));
    const jobs = await Promise.all(ids.map((id) => first.jobs.get('key_1', id)));
    expect(jobs.map((j) => j.status)).toEqual(ids.map(() => 'completed'));
    expect(jobs.map((j) => j.billing)).toEqual(ids.map(() => 'billed'));
    expect(published.sort()).toEqual([...ids].sort());
    expect(events).toHaveLength(5);
    for (const replica of replicas) await replica.stop();
    await bus.close();
    await store.close();
  });

  it('read a stored `succeeded` back as completed', async () => {
    const store = new SqliteStore(join(dir, 'legacy'));
    const tasks = await TaskRepository.open(store, 3600);
    const now = new Date();
    const legacy = {
      _id: 'video_legacy',
      key_id: 'k',
      model: 'beta-dance',
      group: 'beta-dance',
      provider: 'ark',
      deployment: 0,
      provider_task_id: 'cgt-1',
      status: 'succeeded',
      progress: 100,
      seconds: 4,
      resolution: '480p',
      ratio: '16:9',
      size: '854x480',
      error_message: null,
      total_tokens: 1,
      video_url: null,
      video_url_at: null,
      video_url_downloads: 0,
      created_at: now,
      updated_at: now,
      completed_at: now,
      billing: 'billed',
      cost_nano_usd: 1,
      next_poll_at: now,
      poll_failures: 0,
      lease_until: null,
    } as unknown as TaskRecord;
    await tasks.insert(legacy);
    expect(jobMessage((await tasks.findOwned('video_legacy', 'k'))!, 604_800).status).toBe('VIDEO_STATUS_COMPLETED');
    await store.close();
  });
});

describe('video job statuses', () => {
  it('cross gRPC and come back as the same strings, through the one table both sides use', () => {
    for (const status of ['queued', 'in_progress', 'completed', 'failed', 'cancelled'] as const) {
      expect(videoJobStatus(videoStatusMessage(status))).toBe(status);
    }
    expect(videoJobStatus('VIDEO_STATUS_UNSPECIFIED')).toBe('queued');
  });
});
