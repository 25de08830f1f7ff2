import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UpstreamFailure } from '@gateway/upstream';
import type { ProviderTask, VideoProvider } from '../types.js';

// The demo provider: renders inside the gateway, so a newcomer without a vendor account sees a
// video job go queued → in_progress → completed through routing, budgets, the poller, billing
// and the download path exactly as a vendor's would. It needs no credential and calls no one.
//
// Nothing is kept in memory: the task id carries when the task was made and what was asked, so
// any replica (or the next start) answers a query the same way. The clip is a real H.264 MP4 in
// the repository (services/video/assets/demo, made by scripts/make-demo-clips.sh), handed to the
// edge inline as a `data:` address, which the edge serves with Range like a vendor's download.

/** How long a task waits in the queue, then renders; "a few seconds" in all, as a fast vendor's short clip. */
const QUEUED_MS = 1_000;
const RENDER_MS = 4_000;
/** The clips are 24 fps; tokens follow the usual video formula: width × height × fps × seconds / 1024. */
const FPS = 24;
const CLIP_SECONDS = 4;
/** Words in a prompt that ask the demo to fail, so clients can see both failure kinds. */
const FAIL_WORD = '[demo:fail]';
const MODERATION_WORD = '[demo:moderation]';

/** Output pixels by resolution and ratio: exactly the clips there are (all 4 seconds long). */
const PIXELS: Readonly<Record<string, Readonly<Record<string, [number, number]>>>> = {
  '720p': { '16:9': [1280, 720], '9:16': [720, 1280] },
};

const ASSETS = new URL('../../../assets/demo/', import.meta.url);
const clips = new Map<string, string>();

/** The clip for a size as a data: address, read from the repository once. */
function clipAddress(resolution: string, ratio: string): string {
  const name = `${resolution}-${ratio.replace(':', 'x')}`;
  let address = clips.get(name);
  if (address === undefined) {
    address = `data:video/mp4;base64,${readFileSync(new URL(`${name}.mp4`, ASSETS)).toString('base64')}`;
    clips.set(name, address);
  }
  return address;
}

type Outcome = 'ok' | 'fail' | 'moderation';

interface DemoTask {
  createdMs: number;
  resolution: string;
  ratio: string;
  seconds: number;
  outcome: Outcome;
}

const TASK_ID = /^demo-(\d{1,15})-([0-9a-z]+)-(\d+)x(\d+)-(\d{1,3})-(ok|fail|moderation)-[0-9a-f]{8}$/;

function encodeTask(task: DemoTask): string {
  const ratio = task.ratio.replace(':', 'x');
  return `demo-${task.createdMs}-${task.resolution.toLowerCase()}-${ratio}-${task.seconds}-${task.outcome}-${randomBytes(4).toString('hex')}`;
}

function decodeTask(id: string): DemoTask | undefined {
  const match = TASK_ID.exec(id);
  if (!match) return undefined;
  const [, created, resolution, a, b, seconds, outcome] = match as unknown as [string, string, string, string, string, string, Outcome];
  return { createdMs: Number(created), resolution, ratio: `${a}:${b}`, seconds: Number(seconds), outcome };
}

function notFound(): UpstreamFailure {
  return new UpstreamFailure('status', { status: 404, callerMessage: 'No such demo task.', subject: 'provider' });
}

export const demoProvider: VideoProvider = {
  name: 'demo',
  maxPromptChars: 4000,

  async create(_http, _deployment, request) {
    // With a first frame the ratio would follow the image; the demo ignores the image's shape.
    const ratio = request.ratio ?? '16:9';
    if (!PIXELS[request.resolution]?.[ratio] || request.seconds !== CLIP_SECONDS) {
      throw new UpstreamFailure('status', {
        status: 400,
        callerMessage: `The demo renders ${CLIP_SECONDS}-second 720p clips at 16:9 or 9:16 only.`,
        subject: 'provider',
      });
    }
    const outcome: Outcome = request.prompt.includes(MODERATION_WORD) ? 'moderation' : request.prompt.includes(FAIL_WORD) ? 'fail' : 'ok';
    return encodeTask({ createdMs: Date.now(), resolution: request.resolution, ratio, seconds: request.seconds, outcome });
  },

  async query(_http, _deployment, taskId): Promise<ProviderTask> {
    const task = decodeTask(taskId);
    const pixels = task && PIXELS[task.resolution]?.[task.ratio];
    if (!task || !pixels) throw notFound();
    const elapsed = Date.now() - task.createdMs;
    const base: ProviderTask = {
      status: 'queued',
      progress: 0,
      videoUrl: undefined,
      width: pixels[0],
      height: pixels[1],
      totalTokens: undefined,
      errorMessage: undefined,
    };
    if (elapsed < QUEUED_MS) return base;
    if (elapsed < QUEUED_MS + RENDER_MS) {
      return { ...base, status: 'in_progress', progress: Math.min(99, Math.floor(((elapsed - QUEUED_MS) / RENDER_MS) * 100)) };
    }
    if (task.outcome === 'moderation') {
      return {
        ...base,
        status: 'failed',
        progress: 100,
        errorCode: 'moderation_blocked',
        errorMessage: 'Rejected by content moderation (demo).',
      };
    }
    if (task.outcome === 'fail') {
      return { ...base, status: 'failed', progress: 100, errorCode: 'generation_failed', errorMessage: 'The demo was asked to fail.' };
    }
    return {
      ...base,
      status: 'completed',
      progress: 100,
      videoUrl: clipAddress(task.resolution, task.ratio),
      totalTokens: Math.round((pixels[0] * pixels[1] * FPS * task.seconds) / 1024),
    };
  },

  // Like a vendor that cancels anything not yet finished; a finished task is refused.
  async cancel(_http, _deployment, taskId) {
    const task = decodeTask(taskId);
    if (!task) throw notFound();
    if (Date.now() - task.createdMs >= QUEUED_MS + RENDER_MS) {
      throw new UpstreamFailure('status', { status: 409, callerMessage: 'The demo task has finished.', subject: 'provider' });
    }
  },

  pixels(resolution, ratio) {
    return PIXELS[resolution]?.[ratio ?? '16:9'];
  },
};
