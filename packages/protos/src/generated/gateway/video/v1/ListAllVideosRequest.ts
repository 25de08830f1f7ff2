// Original file: proto/gateway/video/v1/video.proto

import type { VideoStatus as _gateway_video_v1_VideoStatus, VideoStatus__Output as _gateway_video_v1_VideoStatus__Output } from '../../../gateway/video/v1/VideoStatus.js';

export interface ListAllVideosRequest {
  /**
   * UNSPECIFIED: every status.
   */
  'status'?: (_gateway_video_v1_VideoStatus);
  /**
   * Empty: every key.
   */
  'key_id'?: (string);
  /**
   * At most this many; 0: 100, capped at 1000.
   */
  'page_size'?: (number);
  /**
   * The last job id of the previous page; empty for the first.
   */
  'after'?: (string);
}

export interface ListAllVideosRequest__Output {
  /**
   * UNSPECIFIED: every status.
   */
  'status': (_gateway_video_v1_VideoStatus__Output);
  /**
   * Empty: every key.
   */
  'key_id': (string);
  /**
   * At most this many; 0: 100, capped at 1000.
   */
  'page_size': (number);
  /**
   * The last job id of the previous page; empty for the first.
   */
  'after': (string);
}
