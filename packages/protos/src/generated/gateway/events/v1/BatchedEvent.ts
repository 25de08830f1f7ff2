// Original file: proto/gateway/events/v1/events.proto


/**
 * One event inside an EventBatch: its idempotency id and its encoded message.
 */
export interface BatchedEvent {
  'id'?: (string);
  'data'?: (Buffer | Uint8Array | string);
}

/**
 * One event inside an EventBatch: its idempotency id and its encoded message.
 */
export interface BatchedEvent__Output {
  'id': (string);
  'data': (Buffer);
}
