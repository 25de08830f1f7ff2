// Original file: proto/gateway/video/v1/video.proto

import type { VideoStatus as _gateway_video_v1_VideoStatus, VideoStatus__Output as _gateway_video_v1_VideoStatus__Output } from '../../../gateway/video/v1/VideoStatus.js';
import type { Long } from '@grpc/proto-loader';

export interface VideoJob {
  /**
   * "video_…", opaque.
   */
  'id'?: (string);
  /**
   * The group as the caller named it.
   */
  'model'?: (string);
  'status'?: (_gateway_video_v1_VideoStatus);
  'progress'?: (number);
  'seconds'?: (number);
  /**
   * "<width>x<height>"; empty until known.
   */
  'size'?: (string);
  /**
   * Set on a failed job.
   */
  'error_message'?: (string);
  /**
   * Token-billed groups: the provider's real count once known.
   */
  'total_tokens'?: (number | string | Long);
  /**
   * Unix milliseconds.
   */
  'created_at_ms'?: (number | string | Long);
  /**
   * Unix milliseconds; 0 until completed.
   */
  'completed_at_ms'?: (number | string | Long);
  /**
   * Set on a failed job: "moderation_blocked", "generation_failed" or "expired".
   */
  'error_code'?: (string);
  /**
   * Unix milliseconds: when the record (and the clip's download) goes away.
   */
  'expires_at_ms'?: (number | string | Long);
}

export interface VideoJob__Output {
  /**
   * "video_…", opaque.
   */
  'id': (string);
  /**
   * The group as the caller named it.
   */
  'model': (string);
  'status': (_gateway_video_v1_VideoStatus__Output);
  'progress': (number);
  'seconds': (number);
  /**
   * "<width>x<height>"; empty until known.
   */
  'size': (string);
  /**
   * Set on a failed job.
   */
  'error_message': (string);
  /**
   * Token-billed groups: the provider's real count once known.
   */
  'total_tokens': (number);
  /**
   * Unix milliseconds.
   */
  'created_at_ms': (number);
  /**
   * Unix milliseconds; 0 until completed.
   */
  'completed_at_ms': (number);
  /**
   * Set on a failed job: "moderation_blocked", "generation_failed" or "expired".
   */
  'error_code': (string);
  /**
   * Unix milliseconds: when the record (and the clip's download) goes away.
   */
  'expires_at_ms': (number);
}
