import type { DeploymentConfig } from '@gateway/config';
import type { VideoJobStatus } from '@gateway/contracts';
import type { ProviderHttp } from '../upstream.js';

/** The statuses the gateway records; the contracts define them, with their wire form. */
export type JobStatus = VideoJobStatus;

/** What the gateway asks a provider to render, already validated against the group. */
export interface RenderRequest {
  prompt: string;
  seconds: number;
  resolution: string;
  /** Undefined with a first-frame image: the provider takes the ratio from the image. */
  ratio: string | undefined;
  imageUrl: string | undefined;
}

/** A provider task as the gateway sees it, whatever the vendor calls things. */
export interface ProviderTask {
  status: JobStatus;
  progress: number | undefined;
  /** The signed download address (internal only). */
  videoUrl: string | undefined;
  /** Output pixel size, when the provider tells it. */
  width: number | undefined;
  height: number | undefined;
  /** Token-billed providers: the real count. */
  totalTokens: number | undefined;
  /** On failure: what the caller is told. */
  errorMessage: string | undefined;
  /** On failure: its kind, as the job's `error.code` says it. */
  errorCode?: VideoErrorCode;
}

/** Why a job failed: a moderation refusal, the provider's failure, or a task that expired upstream. */
export type VideoErrorCode = 'moderation_blocked' | 'generation_failed' | 'expired';

export interface VideoProvider {
  /** The name deployments use in `provider:`. */
  readonly name: string;
  /** The longest prompt the provider takes. */
  readonly maxPromptChars: number;
  create(http: ProviderHttp, deployment: DeploymentConfig, request: RenderRequest): Promise<string>;
  query(http: ProviderHttp, deployment: DeploymentConfig, taskId: string): Promise<ProviderTask>;
  /** Cancels a task that has not started; absent where the vendor has no such call. Throws UpstreamFailure when refused. */
  cancel?(http: ProviderHttp, deployment: DeploymentConfig, taskId: string): Promise<void>;
  /** Output size from the provider's pixel table, for when a task does not report it. */
  pixels(resolution: string, ratio: string | undefined): [number, number] | undefined;
}
