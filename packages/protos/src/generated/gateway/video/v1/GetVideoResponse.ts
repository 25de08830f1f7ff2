// Original file: proto/gateway/video/v1/video.proto

import type { VideoJob as _gateway_video_v1_VideoJob, VideoJob__Output as _gateway_video_v1_VideoJob__Output } from '../../../gateway/video/v1/VideoJob.js';

export interface GetVideoResponse {
  'job'?: (_gateway_video_v1_VideoJob | null);
}

export interface GetVideoResponse__Output {
  'job': (_gateway_video_v1_VideoJob__Output | null);
}
