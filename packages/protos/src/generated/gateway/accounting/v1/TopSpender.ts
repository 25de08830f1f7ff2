// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface TopSpender {
  /**
   * The key or team id.
   */
  'id'?: (string);
  /**
   * Its name; empty for a deleted team.
   */
  'name'?: (string);
  'spent_nano_usd'?: (number | string | Long);
  'requests'?: (number | string | Long);
}

export interface TopSpender__Output {
  /**
   * The key or team id.
   */
  'id': (string);
  /**
   * Its name; empty for a deleted team.
   */
  'name': (string);
  'spent_nano_usd': (number);
  'requests': (number);
}
