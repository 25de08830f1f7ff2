// The events the services exchange, and their subjects.

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
}

/** A key was created, revoked or changed: edges drop whatever they cached for it. */
export interface KeyChangedEvent {
  key_id: string;
  change: 'created' | 'revoked' | 'updated';
}
