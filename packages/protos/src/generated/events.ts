import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { BatchedEvent as _gateway_events_v1_BatchedEvent, BatchedEvent__Output as _gateway_events_v1_BatchedEvent__Output } from './gateway/events/v1/BatchedEvent.js';
import type { EventBatch as _gateway_events_v1_EventBatch, EventBatch__Output as _gateway_events_v1_EventBatch__Output } from './gateway/events/v1/EventBatch.js';
import type { KeyChangedEvent as _gateway_events_v1_KeyChangedEvent, KeyChangedEvent__Output as _gateway_events_v1_KeyChangedEvent__Output } from './gateway/events/v1/KeyChangedEvent.js';
import type { SpendEvent as _gateway_events_v1_SpendEvent, SpendEvent__Output as _gateway_events_v1_SpendEvent__Output } from './gateway/events/v1/SpendEvent.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gateway: {
    events: {
      v1: {
        BatchedEvent: MessageTypeDefinition<_gateway_events_v1_BatchedEvent, _gateway_events_v1_BatchedEvent__Output>
        EventBatch: MessageTypeDefinition<_gateway_events_v1_EventBatch, _gateway_events_v1_EventBatch__Output>
        KeyChange: EnumTypeDefinition
        KeyChangedEvent: MessageTypeDefinition<_gateway_events_v1_KeyChangedEvent, _gateway_events_v1_KeyChangedEvent__Output>
        SpendEvent: MessageTypeDefinition<_gateway_events_v1_SpendEvent, _gateway_events_v1_SpendEvent__Output>
        SpendKind: EnumTypeDefinition
      }
    }
  }
}

