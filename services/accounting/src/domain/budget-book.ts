import type { KeyRecord, KeyRepository } from './keys.js';

// Where a key's live balance is kept: on the key document in the store. Every hold and
// settlement is one conditional atomic update of that document, so any number of accounting
// replicas can share it (MongoDB), and the embedded store (SQLite) does the same in tens of
// microseconds, with nothing kept in this process's memory. docs/architecture.md, "Budget
// authority", has the measurement.

/** What a hold id may be: it becomes part of a field path (`holds.<id>`), so nothing else is let near the store. */
export const HOLD_ID = /^[A-Za-z0-9_-]{1,128}$/;

export class BudgetBook {
  constructor(private readonly keys: KeyRepository) {}

  /** Holds `amount` if it fits (or is already held under this id); the key's available after, or undefined when it does not fit. */
  async hold(key: KeyRecord, holdId: string, amount: number, group: string): Promise<number | undefined> {
    const held = await this.keys.hold(key._id, holdId, amount, group);
    if (held) return held.available_nano_usd;
    const current = await this.keys.get(key._id);
    return current.holds?.[holdId] ? current.available_nano_usd : undefined;
  }

  /** Records spend; when `holdId` is still held, its hold ends in the same step. */
  async settle(keyId: string, holdId: string | undefined, cost: number): Promise<void> {
    if (holdId) {
      const hold = (await this.keys.get(keyId)).holds?.[holdId];
      if (hold && (await this.keys.settle(keyId, holdId, hold.amount, cost))) return;
    }
    await this.keys.spend(keyId, cost);
  }

  /** Settles only if the hold is still there (a redelivered event whose first delivery stopped midway). */
  async settleIfHeld(keyId: string, holdId: string, cost: number): Promise<void> {
    const hold = (await this.keys.get(keyId).catch(() => undefined))?.holds?.[holdId];
    if (hold) await this.keys.settle(keyId, holdId, hold.amount, cost);
  }

  /**
   * Records spend drawn from a hold that stays open (a lease): `part` leaves the hold, `cost`
   * is spent. A hold with no more than `part` left ends; with no hold the cost is simply spent.
   */
  async settlePart(keyId: string, holdId: string, part: number, cost: number): Promise<void> {
    // Two tries: a concurrent update may end or shrink the hold between the read and the write.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (await this.keys.shrink(keyId, holdId, part, cost)) return;
      const hold = (await this.keys.get(keyId)).holds?.[holdId];
      if (!hold) break;
      if (hold.amount <= part && (await this.keys.settle(keyId, holdId, hold.amount, cost))) return;
    }
    await this.keys.spend(keyId, cost);
  }

  /**
   * Gives a hold back: `part` of it, or all of it when `part` is undefined or covers it.
   * `keyId` (empty when the caller did not say) spares a scan of every key for the hold.
   */
  async release(holdId: string, part?: number, keyId = ''): Promise<void> {
    // An id that cannot be a hold is not held: nothing to give back.
    if (!HOLD_ID.test(holdId)) return;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const key = await this.keys.findByHold(holdId, keyId);
      const hold = key?.holds?.[holdId];
      if (!key || !hold) return;
      if (part !== undefined && part < hold.amount) {
        if (await this.keys.shrink(key._id, holdId, part, 0)) return;
      } else if (await this.keys.release(key._id, holdId, hold.amount)) return;
    }
  }

  /** What the key has left to hold now. */
  async available(key: KeyRecord): Promise<number> {
    return (await this.keys.get(key._id)).available_nano_usd;
  }

  /** Releases holds older than their maximum age; returns how many. */
  async sweep(maxAgeOf: (holdId: string) => number, now: number): Promise<number> {
    let released = 0;
    for (const key of await this.keys.withHolds()) {
      for (const [id, hold] of Object.entries(key.holds ?? {})) {
        if (now - hold.at > maxAgeOf(id) && (await this.keys.release(key._id, id, hold.amount))) released += 1;
      }
    }
    return released;
  }

  /** Spent and reserved as the key document says. */
  figures(key: KeyRecord): { spent: number; reserved: number } {
    return { spent: key.spent_nano_usd, reserved: key.reserved_nano_usd };
  }
}
