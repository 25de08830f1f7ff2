import type { SpendEvent } from '@gateway/contracts';
import { isDuplicateKey, type Collection, type Doc, type DocumentStore } from '@gateway/store';
import type { Reservations } from './reservations.js';

/** One applied spend event; its `_id` is the event's idempotency id, so it is stored once. */
export interface LedgerEntry extends Doc {
  key_id: string;
  group: string;
  kind: SpendEvent['kind'];
  cost_nano_usd: number;
  occurred_at: Date;
  recorded_at: Date;
  usage: Readonly<Record<string, number>> | null;
}

/** Spend and request count of one key on one group. */
export interface GroupUsageRecord extends Doc {
  key_id: string;
  group: string;
  spent_nano_usd: number;
  requests: number;
}

export const LEDGER_COLLECTION = 'accounting_ledger';
export const USAGE_COLLECTION = 'accounting_usage';

export class Ledger {
  private constructor(
    private readonly entries: Collection<LedgerEntry>,
    private readonly usage: Collection<GroupUsageRecord>,
    private readonly reservations: Reservations,
  ) {}

  static async open(store: DocumentStore, reservations: Reservations): Promise<Ledger> {
    const entries = await store.collection<LedgerEntry>(LEDGER_COLLECTION, [{ field: 'key_id' }]);
    const usage = await store.collection<GroupUsageRecord>(USAGE_COLLECTION, [{ field: 'key_id' }]);
    return new Ledger(entries, usage, reservations);
  }

  /**
   * Applies a spend event at most once: the ledger insert is the gate (its id is unique), and the
   * key's and group's totals move only after it. Returns false for an event already applied.
   */
  async apply(event: SpendEvent, now = new Date()): Promise<boolean> {
    try {
      await this.entries.insertOne({
        _id: event.id,
        key_id: event.key_id,
        group: event.group,
        kind: event.kind,
        cost_nano_usd: event.cost_nano_usd,
        occurred_at: new Date(event.occurred_at),
        recorded_at: now,
        usage: event.usage ?? null,
      });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Seen before. If that delivery stopped after the ledger write but before the key's
      // hold was settled (a crash), the hold is still there: settle it now, exactly once. (A
      // lease's part cannot be told apart this way; the lease's sweep gives it back.)
      if (event.reservation_id && !event.lease_id)
        await this.reservations.book.settleIfHeld(event.key_id, event.reservation_id, event.cost_nano_usd);
      return false;
    }
    // The held worst case (if this call reserved one and it is still held) becomes the real cost;
    // a call drawn from a lease takes the part it drew off the lease.
    if (event.lease_id)
      await this.reservations.book.settlePart(event.key_id, event.lease_id, event.lease_nano_usd ?? 0, event.cost_nano_usd);
    else await this.reservations.book.settle(event.key_id, event.reservation_id, event.cost_nano_usd);
    // Calls drawn from a lease come from keys without rate limits: their tokens count nowhere.
    if (!event.lease_id) {
      const tokens = (event.usage?.prompt_tokens ?? 0) + (event.usage?.completion_tokens ?? 0);
      await this.reservations.countTokens(event.key_id, tokens, Math.min(event.occurred_at, Date.now()));
    }
    await this.usage.updateOne(
      { _id: `${event.key_id}|${event.group}`, key_id: event.key_id, group: event.group },
      { $inc: { spent_nano_usd: event.cost_nano_usd, requests: 1 } },
      { upsert: true },
    );
    return true;
  }

  async usageOf(keyId: string): Promise<GroupUsageRecord[]> {
    return this.usage.find({ key_id: keyId }, { sort: { group: 1 } });
  }
}
