// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One billed call or video job.
 */
export interface SpendLogEntry {
  /**
   * The completion id (chat) or the video job id.
   */
  'id'?: (string);
  'key_id'?: (string);
  /**
   * The team the key was in when the call was made; empty when none.
   */
  'team_id'?: (string);
  'group'?: (string);
  /**
   * "chat" or "video".
   */
  'kind'?: (string);
  'cost_nano_usd'?: (number | string | Long);
  'usage'?: ({[key: string]: number | string | Long});
  'occurred_at_ms'?: (number | string | Long);
}

/**
 * One billed call or video job.
 */
export interface SpendLogEntry__Output {
  /**
   * The completion id (chat) or the video job id.
   */
  'id': (string);
  'key_id': (string);
  /**
   * The team the key was in when the call was made; empty when none.
   */
  'team_id': (string);
  'group': (string);
  /**
   * "chat" or "video".
   */
  'kind': (string);
  'cost_nano_usd': (number);
  'usage': ({[key: string]: number});
  'occurred_at_ms': (number);
}
