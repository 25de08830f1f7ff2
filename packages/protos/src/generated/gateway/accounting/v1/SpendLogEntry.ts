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
  /**
   * Billed on the gateway's own token count (the caller left mid-stream, or the upstream sent no
   * usage) rather than the upstream's.
   */
  'estimated'?: (boolean);
  /**
   * What the call's cached prompt tokens (usage "cached_tokens") saved against the uncached price.
   */
  'cache_saved_nano_usd'?: (number | string | Long);
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
  /**
   * Billed on the gateway's own token count (the caller left mid-stream, or the upstream sent no
   * usage) rather than the upstream's.
   */
  'estimated': (boolean);
  /**
   * What the call's cached prompt tokens (usage "cached_tokens") saved against the uncached price.
   */
  'cache_saved_nano_usd': (number);
}
