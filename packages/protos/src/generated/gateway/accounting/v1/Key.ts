// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface Key {
  /**
   * Opaque identifier, "key_…"; safe to show and log.
   */
  'id'?: (string);
  'name'?: (string);
  /**
   * Group ids the key may call; "*" means every group.
   */
  'models'?: (string)[];
  'budget_nano_usd'?: (number | string | Long);
  /**
   * Requests per minute; 0 means no limit.
   */
  'rpm'?: (number);
  /**
   * Unix milliseconds.
   */
  'created_at_ms'?: (number | string | Long);
  /**
   * Unix milliseconds; 0 while the key is active.
   */
  'revoked_at_ms'?: (number | string | Long);
  /**
   * "sk-…" and the last four characters, to tell keys apart.
   */
  'hint'?: (string);
  /**
   * Tokens (prompt + completion) per minute; 0 means no limit.
   */
  'tpm'?: (number);
}

export interface Key__Output {
  /**
   * Opaque identifier, "key_…"; safe to show and log.
   */
  'id': (string);
  'name': (string);
  /**
   * Group ids the key may call; "*" means every group.
   */
  'models': (string)[];
  'budget_nano_usd': (number);
  /**
   * Requests per minute; 0 means no limit.
   */
  'rpm': (number);
  /**
   * Unix milliseconds.
   */
  'created_at_ms': (number);
  /**
   * Unix milliseconds; 0 while the key is active.
   */
  'revoked_at_ms': (number);
  /**
   * "sk-…" and the last four characters, to tell keys apart.
   */
  'hint': (string);
  /**
   * Tokens (prompt + completion) per minute; 0 means no limit.
   */
  'tpm': (number);
}
