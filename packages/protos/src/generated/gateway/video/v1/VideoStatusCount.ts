// Original file: proto/gateway/video/v1/video.proto

import type { VideoStatus as _gateway_video_v1_VideoStatus, VideoStatus__Output as _gateway_video_v1_VideoStatus__Output } from '../../../gateway/video/v1/VideoStatus.js';
import type { Long } from '@grpc/proto-loader';

export interface VideoStatusCount {
  'status'?: (_gateway_video_v1_VideoStatus);
  'count'?: (number | string | Long);
}

export interface VideoStatusCount__Output {
  'status': (_gateway_video_v1_VideoStatus__Output);
  'count': (number);
}
