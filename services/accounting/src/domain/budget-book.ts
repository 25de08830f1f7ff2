import type { KeyRecord, KeyRepository } from './keys.js';

// Where a key's live balance is kept. Two books, one contract:
// - StoreBook: every hold and settlement is one conditional atomic update of the key document
//   in the store, so any number of accounting replicas can share it (MongoDB).
// - MemoryBook: the single accounting process of the embedded mode keeps balances in memory,
//   where a hold costs microseconds, and writes them behind to the store every second. It is
//   exact across crashes because a key's spend is recomputed from the ledger (written before
//   any balance moves) when the key is first touched; holds are simply gone after a crash,
//   which is what a sweeper would have done with them.

export interface Hold {
  amount: number;
  at: number;
  group: string;
}

export interface BudgetBook {
  /** Makes sure the key's balance is known before its ledger grows (the memory book rebuilds it from the ledger). */
  prepare(keyId: string): Promise<void>;
  /** Holds `amount` if it fits (or is already held under this id); the key's available after, or undefined when it does not fit. */
  hold(key: KeyRecord, holdId: string, amount: number, group: string): Promise<number | undefined>;
  /** Records spend; when `holdId` is still held, its hold ends in the same step. */
  settle(keyId: string, holdId: string | undefined, cost: number): Promise<void>;
  /** Settles only if the hold is still there (a redelivered event whose first delivery crashed midway). */
  settleIfHeld(keyId: string, holdId: string, cost: number): Promise<void>;
  /**
   * Records spend drawn from a hold that stays open (a lease): `part` leaves the hold, `cost`
   * is spent. A hold with no more than `part` left ends; with no hold the cost is simply spent.
   */
  settlePart(keyId: string, holdId: string, part: number, cost: number): Promise<void>;
  /** Gives a hold back: `part` of it, or all of it when `part` is undefined or covers it. */
  release(holdId: string, part?: number): Promise<void>;
  /** What the key has left to hold now. */
  available(key: KeyRecord): Promise<number>;
  /** Releases holds older than their maximum age; returns how many. */
  sweep(maxAgeOf: (holdId: string) => number, now: number): Promise<number>;
  /** Spent and reserved as the book sees them now. */
  figures(key: KeyRecord): Promise<{ spent: number; reserved: number }>;
  close(): Promise<void>;
}

export class StoreBook implements BudgetBook {
  constructor(private readonly keys: KeyRepository) {}

  async prepare(): Promise<void> {}

  async hold(key: KeyRecord, holdId: string, amount: number, group: string): Promise<number | undefined> {
    const held = await this.keys.hold(key._id, holdId, amount, group);
    if (held) return held.available_nano_usd;
    const current = await this.keys.get(key._id);
    return current.holds?.[holdId] ? current.available_nano_usd : undefined;
  }

  async settle(keyId: string, holdId: string | undefined, cost: number): Promise<void> {
    if (holdId) {
      const hold = (await this.keys.get(keyId)).holds?.[holdId];
      if (hold && (await this.keys.settle(keyId, holdId, hold.amount, cost))) return;
    }
    await this.keys.spend(keyId, cost);
  }

  async settleIfHeld(keyId: string, holdId: string, cost: number): Promise<void> {
    const hold = (await this.keys.get(keyId).catch(() => undefined))?.holds?.[holdId];
    if (hold) await this.keys.settle(keyId, holdId, hold.amount, cost);
  }

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

  async release(holdId: string, part?: number): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const key = await this.keys.findByHold(holdId);
      const hold = key?.holds?.[holdId];
      if (!key || !hold) return;
      if (part !== undefined && part < hold.amount) {
        if (await this.keys.shrink(key._id, holdId, part, 0)) return;
      } else if (await this.keys.release(key._id, holdId, hold.amount)) return;
    }
  }

  async available(key: KeyRecord): Promise<number> {
    return (await this.keys.get(key._id)).available_nano_usd;
  }

  async sweep(maxAgeOf: (holdId: string) => number, now: number): Promise<number> {
    let released = 0;
    for (const key of await this.keys.withHolds()) {
      for (const [id, hold] of Object.entries(key.holds ?? {})) {
        if (now - hold.at > maxAgeOf(id) && (await this.keys.release(key._id, id, hold.amount))) released += 1;
      }
    }
    return released;
  }

  async figures(key: KeyRecord): Promise<{ spent: number; reserved: number }> {
    return { spent: key.spent_nano_usd, reserved: key.reserved_nano_usd };
  }

  async close(): Promise<void> {}
}

interface Balance {
  budget: number;
  spent: number;
  holds: Map<string, Hold>;
  reserved: number;
  dirty: boolean;
}

export class MemoryBook implements BudgetBook {
  readonly #balances = new Map<string, Balance>();
  readonly #loading = new Map<string, Promise<Balance>>();
  readonly #holdOwner = new Map<string, string>();
  readonly #timer: NodeJS.Timeout;

  constructor(private readonly keys: KeyRepository, private readonly ledgerTotal: (keyId: string) => Promise<number>) {
    this.#timer = setInterval(() => void this.flush(), 1000);
    this.#timer.unref();
  }

  async #balance(keyId: string): Promise<Balance> {
    const known = this.#balances.get(keyId);
    if (known) return known;
    let loading = this.#loading.get(keyId);
    if (!loading) {
      loading = (async () => {
        const key = await this.keys.get(keyId);
        // The ledger is the truth: it is written before any balance moves.
        const spent = await this.ledgerTotal(keyId);
        const balance: Balance = { budget: key.budget_nano_usd, spent, holds: new Map(), reserved: 0, dirty: spent !== key.spent_nano_usd || key.reserved_nano_usd !== 0 };
        this.#balances.set(keyId, balance);
        return balance;
      })().finally(() => this.#loading.delete(keyId));
      this.#loading.set(keyId, loading);
    }
    return loading;
  }

  async prepare(keyId: string): Promise<void> {
    await this.#balance(keyId);
  }

  async hold(key: KeyRecord, holdId: string, amount: number, group: string): Promise<number | undefined> {
    const balance = await this.#balance(key._id);
    const available = () => balance.budget - balance.spent - balance.reserved;
    if (balance.holds.has(holdId)) return available();
    if (available() < amount) return undefined;
    balance.holds.set(holdId, { amount, at: Date.now(), group });
    balance.reserved += amount;
    balance.dirty = true;
    this.#holdOwner.set(holdId, key._id);
    return available();
  }

  #end(balance: Balance, holdId: string): number {
    const hold = balance.holds.get(holdId);
    if (!hold) return 0;
    balance.holds.delete(holdId);
    balance.reserved -= hold.amount;
    this.#holdOwner.delete(holdId);
    return hold.amount;
  }

  async settle(keyId: string, holdId: string | undefined, cost: number): Promise<void> {
    const balance = await this.#balance(keyId);
    if (holdId) this.#end(balance, holdId);
    balance.spent += cost;
    balance.dirty = true;
  }

  async settleIfHeld(keyId: string, holdId: string, cost: number): Promise<void> {
    // After a crash the holds are gone and the spend is already in the ledger the balance was
    // rebuilt from; in a running process a held id means the spend was not counted yet.
    const balance = await this.#balance(keyId);
    if (balance.holds.has(holdId)) await this.settle(keyId, holdId, cost);
  }

  /** Takes up to `part` off a hold, ending it when nothing is left. */
  #shrink(balance: Balance, holdId: string, part: number): void {
    const hold = balance.holds.get(holdId);
    if (!hold) return;
    if (hold.amount <= part) {
      this.#end(balance, holdId);
      return;
    }
    hold.amount -= part;
    balance.reserved -= part;
  }

  async settlePart(keyId: string, holdId: string, part: number, cost: number): Promise<void> {
    const balance = await this.#balance(keyId);
    this.#shrink(balance, holdId, part);
    balance.spent += cost;
    balance.dirty = true;
  }

  async release(holdId: string, part?: number): Promise<void> {
    const keyId = this.#holdOwner.get(holdId);
    const balance = keyId ? this.#balances.get(keyId) : undefined;
    if (!balance) return;
    if (part === undefined) this.#end(balance, holdId);
    else this.#shrink(balance, holdId, part);
    balance.dirty = true;
  }

  async available(key: KeyRecord): Promise<number> {
    const balance = await this.#balance(key._id);
    return balance.budget - balance.spent - balance.reserved;
  }

  async sweep(maxAgeOf: (holdId: string) => number, now: number): Promise<number> {
    let released = 0;
    for (const balance of this.#balances.values()) {
      for (const [id, hold] of balance.holds) {
        if (now - hold.at > maxAgeOf(id)) {
          this.#end(balance, id);
          balance.dirty = true;
          released += 1;
        }
      }
    }
    return released;
  }

  async figures(key: KeyRecord): Promise<{ spent: number; reserved: number }> {
    const balance = await this.#balance(key._id);
    return { spent: balance.spent, reserved: balance.reserved };
  }

  /** Writes changed balances to the key documents (for reporting and the next start). */
  async flush(): Promise<void> {
    for (const [keyId, balance] of this.#balances) {
      if (!balance.dirty) continue;
      balance.dirty = false;
      await this.keys.writeBalance(keyId, balance.spent, balance.reserved, balance.budget - balance.spent - balance.reserved)
        .catch(() => { balance.dirty = true; });
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
