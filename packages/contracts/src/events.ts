// The events the services exchange, their subjects and their stream.

import { eventCodecs, type KeyChangedEventMessage__Output, type SpendEventMessage__Output } from '@gateway/protos';

export const SPEND_STREAM = 'SPEND';
export const SPEND_SUBJECTS = 'spend.v1.>';
export const KEYS_CHANGED_SUBJECT = 'keys.v1.changed';

export type SpendKind = 'chat' | 'video';

export function spendSubject(kind: SpendKind): string {
  return `spend.v1.${kind}`;
}

/** Money spent by one successful call; `id` (its idempotency id) is applied at most once. */
export interface SpendEvent {
  /** The completion id for chat, the job id for video. */
  id: string;
  kind: SpendKind;
  key_id: string;
  /** The group id (never an alias). */
  group: string;
  cost_nano_usd: number;
  /** Unix milliseconds. */
  occurred_at: number;
  /** Usage behind the cost, for audit. */
  usage?: Readonly<Record<string, number>>;
  /** The reservation this spend settles, when one was held. */
  reservation_id?: string;
  /** The lease the call was drawn from, and the part it drew (which this spend settles). */
  lease_id?: string;
  lease_nano_usd?: number;
  /** Billed on the gateway's own token counts (caller gone, or no usage from the upstream). */
  estimated?: boolean;
  /** What cached prompt tokens saved against the uncached input price (chat). */
  cache_saved_nano_usd?: number;
}

/**
 * A key was created, revoked or changed: edges drop whatever they cached for it. A team change
 * has an empty `key_id` and names the team: edges drop every cached key of that team.
 */
export interface KeyChangedEvent {
  key_id: string;
  change: 'created' | 'revoked' | 'updated';
  team_id?: string;
}

// The wire form: gateway.events.v1 (proto/gateway/events/v1/events.proto), protobuf binary.
// Publishers encode, consumers decode and reject what does not fit the schema (a malformed
// event is dead-lettered by its consumer, never retried: it would never apply).

/** Thrown by the decoders; `code` is stable for callers and logs. */
export class MalformedEventError extends Error {
  readonly code = 'malformed_event';
  constructor(
    readonly subject: string,
    reason: string,
  ) {
    super(`malformed event on ${subject}: ${reason}`);
    this.name = 'MalformedEventError';
  }
}

const SPEND_KINDS: Readonly<Record<string, SpendKind>> = { SPEND_KIND_CHAT: 'chat', SPEND_KIND_VIDEO: 'video' };
const KEY_CHANGES: Readonly<Record<string, KeyChangedEvent['change']>> = {
  KEY_CHANGE_CREATED: 'created',
  KEY_CHANGE_REVOKED: 'revoked',
  KEY_CHANGE_UPDATED: 'updated',
};
const MAX_ID_LENGTH = 256;

export function encodeSpendEvent(event: SpendEvent): Uint8Array {
  return eventCodecs().SpendEvent.encode({
    id: event.id,
    kind: event.kind === 'chat' ? 'SPEND_KIND_CHAT' : 'SPEND_KIND_VIDEO',
    key_id: event.key_id,
    group: event.group,
    cost_nano_usd: event.cost_nano_usd,
    occurred_at_ms: event.occurred_at,
    // Absent fields stay off the wire (proto3 defaults).
    ...(event.usage ? { usage: { ...event.usage } } : {}),
    ...(event.reservation_id ? { reservation_id: event.reservation_id } : {}),
    ...(event.lease_id ? { lease_id: event.lease_id, lease_nano_usd: event.lease_nano_usd ?? 0 } : {}),
    ...(event.estimated ? { estimated: true } : {}),
    ...(event.cache_saved_nano_usd ? { cache_saved_nano_usd: event.cache_saved_nano_usd } : {}),
  });
}

/**
 * A spend event from the bus: protobuf bytes (from NATS), or the object itself (the in-process
 * bus, its outbox, or an outbox or stream written by an earlier release). Throws MalformedEventError for anything else,
 * and for an event whose fields cannot be applied (no id or key, a negative or unsafe amount).
 */
export function decodeSpendEvent(data: unknown, subject: string): SpendEvent {
  let event: SpendEvent;
  if (data instanceof Uint8Array) {
    let message: SpendEventMessage__Output;
    try {
      message = eventCodecs().SpendEvent.decode(data);
    } catch (error) {
      throw new MalformedEventError(subject, error instanceof Error ? error.message : 'undecodable');
    }
    const kind = SPEND_KINDS[message.kind];
    if (!kind) throw new MalformedEventError(subject, `kind ${String(message.kind)}`);
    event = {
      id: message.id,
      kind,
      key_id: message.key_id,
      group: message.group,
      cost_nano_usd: message.cost_nano_usd,
      occurred_at: message.occurred_at_ms,
      ...(Object.keys(message.usage).length > 0 ? { usage: message.usage } : {}),
      ...(message.reservation_id ? { reservation_id: message.reservation_id } : {}),
      ...(message.lease_id ? { lease_id: message.lease_id, lease_nano_usd: message.lease_nano_usd } : {}),
      ...(message.estimated ? { estimated: true } : {}),
      ...(message.cache_saved_nano_usd ? { cache_saved_nano_usd: message.cache_saved_nano_usd } : {}),
    };
  } else if (typeof data === 'object' && data !== null) {
    event = data as SpendEvent;
    if (event.kind !== 'chat' && event.kind !== 'video') throw new MalformedEventError(subject, 'kind');
  } else {
    throw new MalformedEventError(subject, 'neither bytes nor an object');
  }
  checkSpendEvent(event, subject);
  return event;
}

function checkSpendEvent(event: SpendEvent, subject: string): void {
  const text = (value: unknown): boolean => typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
  const amount = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  if (!text(event.id)) throw new MalformedEventError(subject, 'id');
  if (!text(event.key_id)) throw new MalformedEventError(subject, 'key_id');
  if (!text(event.group)) throw new MalformedEventError(subject, 'group');
  if (!amount(event.cost_nano_usd)) throw new MalformedEventError(subject, 'cost_nano_usd');
  if (!amount(event.occurred_at)) throw new MalformedEventError(subject, 'occurred_at');
  if (event.reservation_id !== undefined && !text(event.reservation_id)) throw new MalformedEventError(subject, 'reservation_id');
  if (event.lease_id !== undefined && (!text(event.lease_id) || !amount(event.lease_nano_usd)))
    throw new MalformedEventError(subject, 'lease');
  if (event.estimated !== undefined && typeof event.estimated !== 'boolean') throw new MalformedEventError(subject, 'estimated');
  if (event.cache_saved_nano_usd !== undefined && !amount(event.cache_saved_nano_usd))
    throw new MalformedEventError(subject, 'cache_saved_nano_usd');
  if (event.usage !== undefined && (typeof event.usage !== 'object' || event.usage === null || !Object.values(event.usage).every(amount))) {
    throw new MalformedEventError(subject, 'usage');
  }
}

export function encodeKeyChangedEvent(event: KeyChangedEvent): Uint8Array {
  const change =
    event.change === 'created' ? 'KEY_CHANGE_CREATED' : event.change === 'revoked' ? 'KEY_CHANGE_REVOKED' : 'KEY_CHANGE_UPDATED';
  return eventCodecs().KeyChangedEvent.encode({ key_id: event.key_id, change, team_id: event.team_id ?? '' });
}

/** A key-change broadcast: protobuf bytes (or the JSON object of an earlier release). */
export function decodeKeyChangedEvent(data: unknown, subject: string): KeyChangedEvent {
  if (data instanceof Uint8Array) {
    let message: KeyChangedEventMessage__Output;
    try {
      message = eventCodecs().KeyChangedEvent.decode(data);
    } catch (error) {
      throw new MalformedEventError(subject, error instanceof Error ? error.message : 'undecodable');
    }
    const change = KEY_CHANGES[message.change];
    if (!change || (!message.key_id && !message.team_id)) throw new MalformedEventError(subject, 'key_id or change');
    return { key_id: message.key_id, change, ...(message.team_id ? { team_id: message.team_id } : {}) };
  }
  if (typeof data === 'object' && data !== null) {
    const event = data as Partial<KeyChangedEvent>;
    if (
      typeof event.key_id === 'string' &&
      event.key_id &&
      (event.change === 'created' || event.change === 'revoked' || event.change === 'updated')
    ) {
      return { key_id: event.key_id, change: event.change };
    }
  }
  throw new MalformedEventError(subject, 'not a key change');
}
