// Original file: proto/gateway/events/v1/events.proto

import type { BatchedEvent as _gateway_events_v1_BatchedEvent, BatchedEvent__Output as _gateway_events_v1_BatchedEvent__Output } from '../../../gateway/events/v1/BatchedEvent.js';

/**
 * Several events published together travel in one NATS message (one acknowledgement); the
 * consumer hands them on one by one under their own ids.
 */
export interface EventBatch {
  'events'?: (_gateway_events_v1_BatchedEvent)[];
}

/**
 * Several events published together travel in one NATS message (one acknowledgement); the
 * consumer hands them on one by one under their own ids.
 */
export interface EventBatch__Output {
  'events': (_gateway_events_v1_BatchedEvent__Output)[];
}
