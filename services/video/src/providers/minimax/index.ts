import { UpstreamFailure } from '@gateway/upstream';
import type { VideoProvider, JobStatus, ProviderTask } from '../types.js';

// MiniMax v2 video generation (MiniMax-H3 models).

const SHORT_SIDE: Readonly<Record<string, number>> = { '480P': 480, '768P': 768, '1080P': 1080, '2K': 1440 };
const STATUS: Readonly<Record<string, JobStatus>> = {
  queued: 'queued',
  running: 'in_progress',
  processing: 'in_progress',
  succeeded: 'completed',
  success: 'completed',
  failed: 'failed',
  fail: 'failed',
  cancelled: 'cancelled',
};

/** Output pixels: the resolution's short side and the ratio, rounded to even numbers. */
export function minimaxPixels(resolution: string, ratio: string | undefined): [number, number] | undefined {
  const short = SHORT_SIDE[resolution];
  const [a, b] = (ratio ?? '16:9').split(':').map(Number) as [number, number];
  if (!short || !a || !b) return undefined;
  const even = (n: number) => Math.round(n / 2) * 2;
  return a >= b ? [even((short * a) / b), short] : [short, even((short * b) / a)];
}

interface MinimaxTask {
  status?: string;
  content?: { url?: string } | null;
  error?: { type?: string; message?: string } | null;
}

export const minimaxProvider: VideoProvider = {
  name: 'minimax',
  maxPromptChars: 7000,

  async create(http, deployment, request) {
    const content: Record<string, unknown>[] = [{ type: 'text', text: request.prompt }];
    if (request.imageUrl) content.push({ type: 'image_url', image_url: { url: request.imageUrl }, role: 'first_frame' });
    const answer = (await http.call(deployment, 'POST', '/v2/video_generation', {
      model: deployment.model,
      content,
      resolution: request.resolution,
      duration: request.seconds,
      // Text-only needs a concrete ratio; with a first frame it must be "adaptive".
      ratio: request.imageUrl ? 'adaptive' : (request.ratio ?? '16:9'),
    })) as { task_id?: unknown };
    if (typeof answer.task_id !== 'string' && typeof answer.task_id !== 'number')
      throw new UpstreamFailure('protocol', { subject: 'provider' });
    return String(answer.task_id);
  },

  async query(http, deployment, taskId): Promise<ProviderTask> {
    const { task = {} } = (await http.call(deployment, 'GET', `/v2/query/video_generation/${encodeURIComponent(taskId)}`)) as {
      task?: MinimaxTask;
    };
    const status = STATUS[task.status ?? ''] ?? 'queued';
    const moderated = /moderation|sensitive/i.test(`${task.error?.type ?? ''} ${task.error?.message ?? ''}`);
    return {
      status,
      progress: undefined,
      videoUrl: task.content?.url ?? undefined,
      width: undefined,
      height: undefined,
      totalTokens: undefined,
      ...(status === 'failed' ? { errorCode: moderated ? ('moderation_blocked' as const) : ('generation_failed' as const) } : {}),
      errorMessage:
        status !== 'failed'
          ? undefined
          : moderated
            ? 'Rejected by content moderation.'
            : (task.error?.message?.replace(/https?:\/\/\S+/g, '[url]') ?? 'The provider could not generate the video.'),
    };
  },

  pixels: minimaxPixels,
};
