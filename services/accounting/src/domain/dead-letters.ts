import { randomBytes } from 'node:crypto';
import type { BusEvent } from '@gateway/bus';
import type { Collection, Doc, DocumentStore } from '@gateway/store';

// Events accounting could not decode: kept aside (not applied, not retried) so an operator can
// see what a publisher sent, for 30 days.

export const DEAD_LETTERS_COLLECTION = 'accounting_dead_letters';
const KEEP_SECONDS = 30 * 24 * 3600;

export interface DeadLetter extends Doc {
  event_id: string;
  subject: string;
  /** The bytes as base64, or the JSON value as sent. */
  data_base64?: string;
  data_json?: unknown;
  reason: string;
  at: Date;
}

export class DeadLetters {
  private constructor(private readonly letters: Collection<DeadLetter>) {}

  static async open(store: DocumentStore): Promise<DeadLetters> {
    return new DeadLetters(
      await store.collection<DeadLetter>(DEAD_LETTERS_COLLECTION, [{ field: 'at', expireAfterSeconds: KEEP_SECONDS }]),
    );
  }

  /** Its own _id, since a malformed event's id may repeat or clash with a real one. */
  async keep(event: BusEvent<unknown>, reason: string): Promise<void> {
    const data =
      event.data instanceof Uint8Array
        ? { data_base64: Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength).toString('base64') }
        : { data_json: event.data ?? null };
    await this.letters.insertOne({
      _id: `dl_${randomBytes(12).toString('base64url')}`,
      event_id: event.id,
      subject: event.subject,
      ...data,
      reason,
      at: new Date(),
    });
  }

  async list(): Promise<DeadLetter[]> {
    return this.letters.find({}, { sort: { at: 1 } });
  }
}
