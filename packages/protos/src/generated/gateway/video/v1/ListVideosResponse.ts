// Original file: proto/gateway/video/v1/video.proto

import type { VideoJob as _gateway_video_v1_VideoJob, VideoJob__Output as _gateway_video_v1_VideoJob__Output } from '../../../gateway/video/v1/VideoJob.js';

export interface ListVideosResponse {
  'jobs'?: (_gateway_video_v1_VideoJob)[];
  'has_more'?: (boolean);
}

export interface ListVideosResponse__Output {
  'jobs': (_gateway_video_v1_VideoJob__Output)[];
  'has_more': (boolean);
}
