import { UpstreamFailure } from '@gateway/upstream';
import type { VideoProvider, JobStatus, ProviderTask, VideoErrorCode } from '../types.js';

// BytePlus ModelArk content-generation tasks (Seedance models).

/** Seedance 2.5 output pixels by resolution and ratio; with an image ("adaptive") the 16:9 size is reported unless the task says otherwise. */
export const ARK_PIXELS: Readonly<Record<string, Readonly<Record<string, [number, number]>>>> = {
  '480p': { '16:9': [854, 480], '4:3': [752, 560], '1:1': [640, 640], '3:4': [560, 752], '9:16': [480, 854], '21:9': [992, 432] },
  '720p': { '16:9': [1280, 720], '4:3': [1112, 834], '1:1': [960, 960], '3:4': [834, 1112], '9:16': [720, 1280], '21:9': [1470, 630] },
  '1080p': {
    '16:9': [1920, 1080],
    '4:3': [1664, 1248],
    '1:1': [1440, 1440],
    '3:4': [1248, 1664],
    '9:16': [1080, 1920],
    '21:9': [2206, 946],
  },
};

const STATUS: Readonly<Record<string, JobStatus>> = {
  queued: 'queued',
  running: 'in_progress',
  succeeded: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'failed',
};

interface ArkTask {
  status?: string;
  error?: { code?: string; message?: string } | null;
  content?: { video_url?: string } | null;
  resolution?: string;
  ratio?: string;
  usage?: { completion_tokens?: number; total_tokens?: number } | null;
}

export const arkProvider: VideoProvider = {
  name: 'ark',
  maxPromptChars: 5000,

  async create(http, deployment, request) {
    const content: Record<string, unknown>[] = [{ type: 'text', text: request.prompt }];
    if (request.imageUrl) content.push({ type: 'image_url', image_url: { url: request.imageUrl }, role: 'first_frame' });
    const body = {
      model: deployment.model,
      content,
      resolution: request.resolution,
      // With a first frame only "adaptive" is accepted: the ratio follows the image.
      ratio: request.imageUrl ? 'adaptive' : request.ratio,
      // Always sent: the upstream default (-1) lets the model choose the length.
      duration: request.seconds,
      watermark: false,
    };
    const answer = (await http.call(deployment, 'POST', '/contents/generations/tasks', body)) as { id?: unknown };
    if (typeof answer.id !== 'string') throw new UpstreamFailure('protocol', { subject: 'provider' });
    return answer.id;
  },

  async query(http, deployment, taskId): Promise<ProviderTask> {
    const task = (await http.call(deployment, 'GET', `/contents/generations/tasks/${encodeURIComponent(taskId)}`)) as ArkTask;
    const status = STATUS[task.status ?? ''] ?? 'queued';
    const pixels = task.resolution ? ARK_PIXELS[task.resolution]?.[task.ratio ?? '16:9'] : undefined;
    const tokens = task.usage?.total_tokens ?? task.usage?.completion_tokens;
    return {
      status,
      progress: undefined,
      videoUrl: task.content?.video_url ?? undefined,
      width: pixels?.[0],
      height: pixels?.[1],
      totalTokens: typeof tokens === 'number' ? tokens : undefined,
      errorMessage: status === 'failed' ? describeArkError(task) : undefined,
      ...(status === 'failed' ? { errorCode: arkErrorCode(task) } : {}),
    };
  },

  // `DELETE …/tasks/{id}` cancels a task still queued; a running one is refused (4xx).
  async cancel(http, deployment, taskId): Promise<void> {
    await http.call(deployment, 'DELETE', `/contents/generations/tasks/${encodeURIComponent(taskId)}`);
  },

  pixels(resolution, ratio) {
    return ARK_PIXELS[resolution]?.[ratio ?? '16:9'];
  },
};

function arkErrorCode(task: ArkTask): VideoErrorCode {
  if (task.status === 'expired') return 'expired';
  return /Sensitive|Moderation|Risk/i.test(task.error?.code ?? '') ? 'moderation_blocked' : 'generation_failed';
}

function describeArkError(task: ArkTask): string {
  if (task.status === 'expired') return 'The task expired before it finished.';
  const code = task.error?.code ?? '';
  if (/Sensitive|Moderation|Risk/i.test(code)) return `Rejected by content moderation (${code}).`;
  return task.error?.message ? task.error.message.replace(/https?:\/\/\S+/g, '[url]') : 'The provider could not generate the video.';
}
