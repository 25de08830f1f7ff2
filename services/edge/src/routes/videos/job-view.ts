import { videoJobStatus } from '@gateway/contracts';
import type { VideoJob__Output } from '@gateway/protos';

/** The job object of the specification; never the provider's task id or download address. */
export function jobView(job: VideoJob__Output) {
  const status = videoJobStatus(job.status);
  return {
    id: job.id,
    object: 'video',
    model: job.model,
    status,
    progress: job.progress,
    created_at: Math.floor(job.created_at_ms / 1000),
    ...(status === 'completed' ? { completed_at: Math.floor(job.completed_at_ms / 1000) } : {}),
    seconds: String(job.seconds),
    ...(status === 'completed' && job.size ? { size: job.size } : {}),
    ...(status === 'failed'
      ? { error: { code: job.error_code || 'generation_failed', message: job.error_message || 'The video could not be generated.' } }
      : {}),
    // When the record, and with it the clip, goes away.
    ...(job.expires_at_ms ? { expires_at: Math.floor(job.expires_at_ms / 1000) } : {}),
    ...(job.total_tokens > 0 ? { usage: { total_tokens: job.total_tokens } } : {}),
  };
}
