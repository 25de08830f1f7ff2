// Original file: proto/gateway/video/v1/video.proto

import type { VideoJob as _gateway_video_v1_VideoJob, VideoJob__Output as _gateway_video_v1_VideoJob__Output } from '../../../gateway/video/v1/VideoJob.js';

export interface OwnedVideoJob {
  'job'?: (_gateway_video_v1_VideoJob | null);
  'key_id'?: (string);
}

export interface OwnedVideoJob__Output {
  'job': (_gateway_video_v1_VideoJob__Output | null);
  'key_id': (string);
}
