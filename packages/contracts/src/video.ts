import { createClient, unary, type CallContext } from '@gateway/grpc';
import {
  protos,
  type DeploymentHealth__Output,
  type ModelGroup__Output,
  type OwnedVideoJob__Output,
  type VideoJob__Output,
  type VideoServiceClient,
  type VideoStatus__Output,
} from '@gateway/protos';

/** A job's status as the video service records it and the HTTP API shows it. */
export type VideoJobStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

// The one table between those strings and the VideoStatus enum they cross gRPC as: the video
// service encodes with it, the edge decodes with it.
const STATUS_MESSAGE: Readonly<Record<VideoJobStatus, VideoStatus__Output>> = {
  queued: 'VIDEO_STATUS_QUEUED',
  in_progress: 'VIDEO_STATUS_IN_PROGRESS',
  completed: 'VIDEO_STATUS_COMPLETED',
  failed: 'VIDEO_STATUS_FAILED',
  cancelled: 'VIDEO_STATUS_CANCELLED',
};
const STATUS_OF = new Map<string, VideoJobStatus>(
  Object.entries(STATUS_MESSAGE).map(([status, message]) => [message, status as VideoJobStatus]),
);

/** The enum value a status travels as. */
export function videoStatusMessage(status: VideoJobStatus): VideoStatus__Output {
  return STATUS_MESSAGE[status];
}

/** The status a received enum value stands for; `queued` for UNSPECIFIED or a value this build does not know. */
export function videoJobStatus(message: VideoStatus__Output): VideoJobStatus {
  return STATUS_OF.get(message) ?? 'queued';
}

export interface CreateVideoCall {
  keyId: string;
  model: string;
  group: string;
  prompt: string;
  seconds: string;
  resolution: string;
  ratio: string;
  inputReference: string;
  /** "WxH" as OpenAI clients send it; empty or absent: none. */
  size?: string;
}

/** The video service as the edge sees it. */
export class VideoClient {
  readonly #client: VideoServiceClient;

  constructor(address: string) {
    this.#client = createClient(protos().gateway.video.v1.VideoService, address);
  }

  async listModels(context?: CallContext): Promise<ModelGroup__Output[]> {
    return (await unary(this.#client, this.#client.ListModels, {}, context)).groups;
  }

  /** Not retried: a repeat could create a second task. */
  async createVideo(call: CreateVideoCall, context: CallContext = {}): Promise<VideoJob__Output> {
    const response = await unary(
      this.#client,
      this.#client.CreateVideo,
      {
        key_id: call.keyId,
        model: call.model,
        group: call.group,
        prompt: call.prompt,
        seconds: call.seconds,
        resolution: call.resolution,
        ratio: call.ratio,
        input_reference: call.inputReference,
        size: call.size ?? '',
      },
      { retries: 0, deadlineMs: 60_000, ...context },
    );
    return required(response.job);
  }

  async getVideo(keyId: string, videoId: string, context?: CallContext): Promise<VideoJob__Output> {
    return required(
      (await unary(this.#client, this.#client.GetVideo, { key_id: keyId, video_id: videoId }, { deadlineMs: 30_000, ...context })).job,
    );
  }

  /** The caller's jobs, a page at a time. */
  async listVideos(
    keyId: string,
    page: { pageSize: number; after: string; ascending: boolean },
    context?: CallContext,
  ): Promise<{ jobs: VideoJob__Output[]; hasMore: boolean }> {
    const response = await unary(
      this.#client,
      this.#client.ListVideos,
      { key_id: keyId, page_size: page.pageSize, after: page.after, ascending: page.ascending },
      context,
    );
    return { jobs: response.jobs, hasMore: response.has_more };
  }

  /** Every key's jobs (or one key's, or of one status), newest first, with counts per status: for the admin API. */
  async listAllVideos(
    query: { status: VideoJobStatus | undefined; keyId: string; pageSize: number; after: string },
    context?: CallContext,
  ): Promise<{ jobs: (OwnedVideoJob__Output & { job: VideoJob__Output })[]; hasMore: boolean; counts: Record<VideoJobStatus, number> }> {
    const response = await unary(
      this.#client,
      this.#client.ListAllVideos,
      {
        status: query.status ? STATUS_MESSAGE[query.status] : 'VIDEO_STATUS_UNSPECIFIED',
        key_id: query.keyId,
        page_size: query.pageSize,
        after: query.after,
      },
      context,
    );
    const counts: Record<VideoJobStatus, number> = { queued: 0, in_progress: 0, completed: 0, failed: 0, cancelled: 0 };
    for (const count of response.counts) counts[videoJobStatus(count.status)] += count.count;
    return { jobs: response.jobs.map((owned) => ({ ...owned, job: required(owned.job) })), hasMore: response.has_more, counts };
  }

  /** The answering replica's view of its upstream deployments. */
  async upstreamHealth(context?: CallContext): Promise<DeploymentHealth__Output[]> {
    return (await unary(this.#client, this.#client.GetUpstreamHealth, {}, context)).deployments;
  }

  /** Removes the caller's job (cancelling it upstream where it is unfinished and the provider can); not retried. */
  async deleteVideo(keyId: string, videoId: string, context?: CallContext): Promise<void> {
    await unary(
      this.#client,
      this.#client.DeleteVideo,
      { key_id: keyId, video_id: videoId },
      { retries: 0, deadlineMs: 30_000, ...context },
    );
  }

  /** The provider's signed address for a finished clip: internal, never shown or logged. */
  async resolveContent(keyId: string, videoId: string, refresh: boolean, context?: CallContext): Promise<string> {
    return (
      await unary(
        this.#client,
        this.#client.ResolveVideoContent,
        { key_id: keyId, video_id: videoId, refresh },
        { deadlineMs: 30_000, ...context },
      )
    ).url;
  }

  close(): void {
    this.#client.close();
  }
}

function required<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('video service answered without a job');
  return value;
}
