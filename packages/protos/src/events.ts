import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Type } from 'protobufjs';
import type { BatchedEvent, BatchedEvent__Output } from './generated/gateway/events/v1/BatchedEvent.js';
import type { EventBatch, EventBatch__Output } from './generated/gateway/events/v1/EventBatch.js';
import type { KeyChangedEvent, KeyChangedEvent__Output } from './generated/gateway/events/v1/KeyChangedEvent.js';
import type { SpendEvent, SpendEvent__Output } from './generated/gateway/events/v1/SpendEvent.js';

// Binary codecs for the messages of proto/gateway/events/v1/events.proto. The bus carries them
// as bytes, not through grpc-js, so they use protobufjs directly; decoding converts with the
// loader's own options (keepCase, longs as numbers, enums as names, defaults filled), so the
// generated __Output types describe what decode returns.

const require = createRequire(import.meta.url);
// protobufjs is CommonJS; a require keeps its static methods (Root, Type) intact under NodeNext.
const protobuf = require('protobufjs') as typeof import('protobufjs');

const EVENTS_PROTO = 'gateway/events/v1/events.proto';
const PROTO_DIR = fileURLToPath(new URL('../../../proto/', import.meta.url));

export interface MessageCodec<In, Out> {
  /** Encodes a message; throws when a field has the wrong type. */
  encode(message: In): Uint8Array;
  /** Decodes bytes; throws when they are not a valid encoding of the message. */
  decode(bytes: Uint8Array): Out;
}

export interface EventCodecs {
  SpendEvent: MessageCodec<SpendEvent, SpendEvent__Output>;
  KeyChangedEvent: MessageCodec<KeyChangedEvent, KeyChangedEvent__Output>;
  BatchedEvent: MessageCodec<BatchedEvent, BatchedEvent__Output>;
  EventBatch: MessageCodec<EventBatch, EventBatch__Output>;
}

function codec<In, Out>(type: Type): MessageCodec<In, Out> {
  const toObject = { longs: Number, enums: String, defaults: true, oneofs: true, bytes: Buffer } as const;
  return {
    encode: (message) => {
      // fromObject turns enum names into numbers; verify then refuses what still does not fit.
      const built = type.fromObject(message as Record<string, unknown>);
      const problem = type.verify(built);
      if (problem) throw new TypeError(`${type.name}: ${problem}`);
      return type.encode(built).finish();
    },
    decode: (bytes) => type.toObject(type.decode(bytes), toObject) as Out,
  };
}

let loaded: EventCodecs | undefined;

/** The event codecs (the schema is read on first use, then cached). */
export function eventCodecs(): EventCodecs {
  if (!loaded) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => `${PROTO_DIR}${target}`;
    root.loadSync(EVENTS_PROTO, { keepCase: true });
    const type = (name: string) => root.lookupType(`gateway.events.v1.${name}`);
    loaded = {
      SpendEvent: codec(type('SpendEvent')),
      KeyChangedEvent: codec(type('KeyChangedEvent')),
      BatchedEvent: codec(type('BatchedEvent')),
      EventBatch: codec(type('EventBatch')),
    };
  }
  return loaded;
}

export type {
  SpendEvent as SpendEventMessage,
  SpendEvent__Output as SpendEventMessage__Output,
} from './generated/gateway/events/v1/SpendEvent.js';
export type {
  KeyChangedEvent as KeyChangedEventMessage,
  KeyChangedEvent__Output as KeyChangedEventMessage__Output,
} from './generated/gateway/events/v1/KeyChangedEvent.js';
export type { EventBatch, EventBatch__Output } from './generated/gateway/events/v1/EventBatch.js';
