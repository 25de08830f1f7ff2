// Original file: proto/gateway/video/v1/video.proto

import type { OwnedVideoJob as _gateway_video_v1_OwnedVideoJob, OwnedVideoJob__Output as _gateway_video_v1_OwnedVideoJob__Output } from '../../../gateway/video/v1/OwnedVideoJob.js';
import type { VideoStatusCount as _gateway_video_v1_VideoStatusCount, VideoStatusCount__Output as _gateway_video_v1_VideoStatusCount__Output } from '../../../gateway/video/v1/VideoStatusCount.js';

export interface ListAllVideosResponse {
  'jobs'?: (_gateway_video_v1_OwnedVideoJob)[];
  'has_more'?: (boolean);
  /**
   * Unexpired jobs per status (of `key_id` when set), whatever the page.
   */
  'counts'?: (_gateway_video_v1_VideoStatusCount)[];
}

export interface ListAllVideosResponse__Output {
  'jobs': (_gateway_video_v1_OwnedVideoJob__Output)[];
  'has_more': (boolean);
  /**
   * Unexpired jobs per status (of `key_id` when set), whatever the page.
   */
  'counts': (_gateway_video_v1_VideoStatusCount__Output)[];
}
