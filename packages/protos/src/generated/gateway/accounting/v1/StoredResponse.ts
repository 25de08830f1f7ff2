// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface StoredResponse {
  /**
   * "resp_…".
   */
  'id'?: (string);
  'key_id'?: (string);
  /**
   * The response object as the caller was given it (JSON).
   */
  'response'?: (Buffer | Uint8Array | string);
  /**
   * The conversation's input items up to and including this turn's, with ids (JSON array).
   */
  'input_items'?: (Buffer | Uint8Array | string);
  /**
   * Unix milliseconds; the record expires with the store's retention after it.
   */
  'created_at_ms'?: (number | string | Long);
}

export interface StoredResponse__Output {
  /**
   * "resp_…".
   */
  'id': (string);
  'key_id': (string);
  /**
   * The response object as the caller was given it (JSON).
   */
  'response': (Buffer);
  /**
   * The conversation's input items up to and including this turn's, with ids (JSON array).
   */
  'input_items': (Buffer);
  /**
   * Unix milliseconds; the record expires with the store's retention after it.
   */
  'created_at_ms': (number);
}
