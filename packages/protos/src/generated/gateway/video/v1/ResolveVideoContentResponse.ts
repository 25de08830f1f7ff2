// Original file: proto/gateway/video/v1/video.proto

import type { Long } from '@grpc/proto-loader';

export interface ResolveVideoContentResponse {
  /**
   * The provider's signed address: internal only, never shown to callers or logged.
   */
  'url'?: (string);
  /**
   * 0 when unknown.
   */
  'content_length'?: (number | string | Long);
}

export interface ResolveVideoContentResponse__Output {
  /**
   * The provider's signed address: internal only, never shown to callers or logged.
   */
  'url': (string);
  /**
   * 0 when unknown.
   */
  'content_length': (number);
}
