// Original file: proto/gateway/events/v1/events.proto

import type { SpendKind as _gateway_events_v1_SpendKind, SpendKind__Output as _gateway_events_v1_SpendKind__Output } from '../../../gateway/events/v1/SpendKind.js';
import type { Long } from '@grpc/proto-loader';

/**
 * Money spent by one successful call, on subject spend.v1.<kind> (stream SPEND). `id` is its
 * idempotency id (the JetStream message id): accounting applies it to the ledger at most once.
 */
export interface SpendEvent {
  /**
   * The completion id for chat, the job id for video.
   */
  'id'?: (string);
  'kind'?: (_gateway_events_v1_SpendKind);
  'key_id'?: (string);
  /**
   * The group id (never an alias).
   */
  'group'?: (string);
  'cost_nano_usd'?: (number | string | Long);
  /**
   * Unix milliseconds.
   */
  'occurred_at_ms'?: (number | string | Long);
  /**
   * Usage behind the cost, for audit (prompt_tokens, seconds, ...).
   */
  'usage'?: ({[key: string]: number | string | Long});
  /**
   * The reservation this spend settles, when one was held; empty when none.
   */
  'reservation_id'?: (string);
  /**
   * The lease the call was drawn from, and the part it drew; empty and 0 when none.
   */
  'lease_id'?: (string);
  'lease_nano_usd'?: (number | string | Long);
  /**
   * Billed on the gateway's own token counts (the caller left a stream, or the upstream sent no
   * usage), not on the upstream's usage block.
   */
  'estimated'?: (boolean);
  /**
   * What the call's cached prompt tokens saved against the uncached input price.
   */
  'cache_saved_nano_usd'?: (number | string | Long);
}

/**
 * Money spent by one successful call, on subject spend.v1.<kind> (stream SPEND). `id` is its
 * idempotency id (the JetStream message id): accounting applies it to the ledger at most once.
 */
export interface SpendEvent__Output {
  /**
   * The completion id for chat, the job id for video.
   */
  'id': (string);
  'kind': (_gateway_events_v1_SpendKind__Output);
  'key_id': (string);
  /**
   * The group id (never an alias).
   */
  'group': (string);
  'cost_nano_usd': (number);
  /**
   * Unix milliseconds.
   */
  'occurred_at_ms': (number);
  /**
   * Usage behind the cost, for audit (prompt_tokens, seconds, ...).
   */
  'usage': ({[key: string]: number});
  /**
   * The reservation this spend settles, when one was held; empty when none.
   */
  'reservation_id': (string);
  /**
   * The lease the call was drawn from, and the part it drew; empty and 0 when none.
   */
  'lease_id': (string);
  'lease_nano_usd': (number);
  /**
   * Billed on the gateway's own token counts (the caller left a stream, or the upstream sent no
   * usage), not on the upstream's usage block.
   */
  'estimated': (boolean);
  /**
   * What the call's cached prompt tokens saved against the uncached input price.
   */
  'cache_saved_nano_usd': (number);
}
