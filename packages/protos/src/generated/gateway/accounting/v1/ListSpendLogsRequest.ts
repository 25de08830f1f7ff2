// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface ListSpendLogsRequest {
  /**
   * Filters; empty or 0 means any.
   */
  'key_id'?: (string);
  'team_id'?: (string);
  'group'?: (string);
  /**
   * Unix milliseconds: from inclusive, to exclusive.
   */
  'from_ms'?: (number | string | Long);
  'to_ms'?: (number | string | Long);
  'page_size'?: (number);
  'page_token'?: (string);
}

export interface ListSpendLogsRequest__Output {
  /**
   * Filters; empty or 0 means any.
   */
  'key_id': (string);
  'team_id': (string);
  'group': (string);
  /**
   * Unix milliseconds: from inclusive, to exclusive.
   */
  'from_ms': (number);
  'to_ms': (number);
  'page_size': (number);
  'page_token': (string);
}
