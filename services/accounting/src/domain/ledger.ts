import type { SpendEvent } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import { isDuplicateKey, type Collection, type Doc, type DocumentStore, type Filter } from '@gateway/store';
import type { KeyRepository } from './keys.js';
import { DAY_MS, dayStart, utcDay } from './periods.js';
import type { CallSpend } from './budget-book.js';
import type { Reservations } from './reservations.js';
import { addFigures, callFigures, figuresInc, noFigures, type SpendFigures, type StoredFigures } from './spend-figures.js';

/** One applied spend event; its `_id` is the event's idempotency id (the completion or job id), so it is stored once. */
export interface LedgerEntry extends Doc {
  key_id: string;
  /** The team the key was in when the call was made (its hold says), or null. */
  team_id?: string | null;
  group: string;
  kind: SpendEvent['kind'];
  cost_nano_usd: number;
  occurred_at: Date;
  recorded_at: Date;
  /** Tokens behind the cost; `cached_tokens`, when present, is the part of the prompt served from the upstream's cache. */
  usage: Readonly<Record<string, number>> | null;
  /** Set (true) only on calls billed on the gateway's own token count; absent otherwise and on earlier rows. */
  estimated?: boolean;
  /** What the cached prompt tokens saved; absent when nothing was saved and on earlier rows. */
  cache_saved_nano_usd?: number;
  /** Newest-first order and the page cursor: the time zero-padded, then the id (unique, and sorted as text). */
  sort_key?: string;
}

/** Spend figures of one key on one group on one UTC day, with the team it was in. */
export interface DailyRecord extends Doc, StoredFigures {
  day: string;
  key_id: string;
  team_id: string | null;
  group: string;
}

export interface SpendLogQuery {
  keyId?: string;
  teamId?: string;
  group?: string;
  /** Unix ms, inclusive. */
  fromMs?: number;
  /** Unix ms, exclusive. */
  toMs?: number;
  limit: number;
  after?: string;
}

export interface DailyQuery {
  keyId?: string;
  teamId?: string;
  group?: string;
  fromDay: string;
  toDay: string;
}

export interface DailyRow extends SpendFigures {
  day: string;
  group: string;
}

export interface GroupFigures extends SpendFigures {
  group: string;
}

export interface DayFigures extends SpendFigures {
  day: string;
}

/** One day's figures of one key (or all keys) on one group, as the batch gathers them. */
interface DailyDelta {
  keyId: string;
  teamId: string | null;
  group: string;
  day: string;
  figures: SpendFigures;
}

/** What applying a batch of spend events did with each. */
export interface BatchOutcome {
  /** Applied now, in the batch's order. */
  applied: SpendEvent[];
  /** Applied before (a redelivery), or repeated within the batch: nothing changed for them. */
  repeated: SpendEvent[];
  /** For a key that does not exist: they can never apply, so they are skipped. */
  unknownKey: SpendEvent[];
}

export const LEDGER_COLLECTION = 'accounting_ledger';
export const DAILY_COLLECTION = 'accounting_daily';
export const DAILY_TOTALS_COLLECTION = 'accounting_daily_totals';
const MAX_PAGE_SIZE = 1000;
const MAX_DAYS = 366;

export function sortKey(occurredAtMs: number, id: string): string {
  return `${String(Math.max(0, occurredAtMs)).padStart(13, '0')}:${id}`;
}

function timeKey(ms: number): string {
  return String(Math.max(0, ms)).padStart(13, '0');
}

/** The ledger row of an event. */
function entryOf(event: SpendEvent, teamId: string | null, recordedAt: number): LedgerEntry {
  return {
    _id: event.id,
    key_id: event.key_id,
    team_id: teamId,
    group: event.group,
    kind: event.kind,
    cost_nano_usd: event.cost_nano_usd,
    occurred_at: new Date(event.occurred_at),
    recorded_at: new Date(recordedAt),
    usage: event.usage ?? null,
    sort_key: sortKey(event.occurred_at, event.id),
    // Only when they say something, as on the wire: most rows stay as small as before.
    ...(event.estimated ? { estimated: true } : {}),
    ...(event.cache_saved_nano_usd ? { cache_saved_nano_usd: event.cache_saved_nano_usd } : {}),
  };
}

function eventFigures(event: SpendEvent): SpendFigures {
  return callFigures(event.cost_nano_usd, event.usage, event.cache_saved_nano_usd);
}

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', { param, message });
}

export class Ledger {
  private constructor(
    private readonly entries: Collection<LedgerEntry>,
    private readonly daily: Collection<DailyRecord>,
    /** The same per day and group only, over every key: the unfiltered daily query reads these. */
    private readonly totals: Collection<DailyRecord>,
    private readonly keys: KeyRepository,
    private readonly reservations: Reservations,
    private readonly clock: () => number,
  ) {}

  static async open(
    store: DocumentStore,
    keys: KeyRepository,
    reservations: Reservations,
    clock: () => number = Date.now,
  ): Promise<Ledger> {
    // Every spend-log filter has an index whose last field is the order, so a page reads only its rows.
    // (Databases of earlier releases also keep a `key_id` index; the compound one covers it.)
    const entries = await store.collection<LedgerEntry>(LEDGER_COLLECTION, [
      { fields: ['key_id', 'sort_key'] },
      { fields: ['key_id', 'group', 'sort_key'] },
      { fields: ['team_id', 'sort_key'] },
      { fields: ['team_id', 'group', 'sort_key'] },
      { fields: ['group', 'sort_key'] },
      { field: 'sort_key' },
    ]);
    const daily = await store.collection<DailyRecord>(DAILY_COLLECTION, [
      { fields: ['key_id', 'day'] },
      { fields: ['team_id', 'day'] },
      { field: 'day' },
    ]);
    const totals = await store.collection<DailyRecord>(DAILY_TOTALS_COLLECTION, [{ field: 'day' }]);
    const ledger = new Ledger(entries, daily, totals, keys, reservations, clock);
    return ledger;
  }

  /**
   * Gives entries of earlier releases their order key and their daily spend, once, a batch of
   * 500 per transaction with a turn of the event loop between batches, so a large ledger is
   * indexed while the service already serves (its spend logs and daily figures fill in as it
   * goes). An entry is claimed (its `sort_key` set, if still unset) before its day is counted,
   * so replicas doing the same never count it twice. Returns how many entries it did.
   */
  async backfill(store: DocumentStore, stopped: () => boolean = () => false): Promise<number> {
    let done = 0;
    for (;;) {
      // `null` also matches a missing field, and reads the sort_key index (no scan per batch).
      const batch = stopped() ? [] : await this.entries.find({ sort_key: null }, { limit: 500 });
      if (batch.length === 0) return done;
      await store.atomically(async () => {
        for (const entry of batch) {
          const at = entry.occurred_at.getTime();
          const claimed = await this.entries.updateOne(
            { _id: entry._id, sort_key: null },
            { $set: { sort_key: sortKey(at, entry._id), team_id: entry.team_id ?? null } },
          );
          if (!claimed) continue;
          const figures = callFigures(entry.cost_nano_usd, entry.usage, entry.cache_saved_nano_usd);
          await this.#writeDaily([{ keyId: entry.key_id, teamId: entry.team_id ?? null, group: entry.group, day: utcDay(at), figures }]);
        }
      });
      done += batch.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Applies a spend event at most once: the ledger insert is the gate (its id is unique), and the
   * balances and totals move only after it. Returns false for an event already applied.
   */
  async apply(event: SpendEvent): Promise<boolean> {
    const key = await this.keys.get(event.key_id);
    const holdId = event.lease_id ?? event.reservation_id;
    const hold = holdId ? key.holds?.[holdId] : undefined;
    // The team the call was held against; a call with no hold counts for the key's team now.
    const teamId = hold ? (hold.team ?? null) : (key.team_id ?? null);
    try {
      await this.entries.insertOne(entryOf(event, teamId, this.clock()));
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Seen before. If that delivery stopped after the ledger write but before the hold was
      // settled (a crash), the hold is still there: settle it now, exactly once. (A lease's part
      // cannot be told apart this way; the lease's sweep gives it back.)
      if (event.reservation_id && !event.lease_id) {
        const first = await this.entries.findOne({ _id: event.id });
        await this.reservations.book.settleIfHeld(event.key_id, first?.team_id ?? null, event.reservation_id, event.cost_nano_usd);
      }
      return false;
    }
    // The held worst case becomes the real cost; a call drawn from a lease takes its part off the lease.
    if (event.lease_id) await this.reservations.book.settle(key, event.lease_id, event.cost_nano_usd, event.lease_nano_usd ?? 0);
    else await this.reservations.book.settle(key, event.reservation_id, event.cost_nano_usd);
    // Calls drawn from a lease come from keys without rate limits: their tokens count nowhere.
    if (!event.lease_id) {
      const tokens = (event.usage?.prompt_tokens ?? 0) + (event.usage?.completion_tokens ?? 0);
      await this.reservations.countTokens(event.key_id, teamId, tokens, Math.min(event.occurred_at, this.clock()));
    }
    await this.#writeDaily([
      { keyId: event.key_id, teamId, group: event.group, day: utcDay(event.occurred_at), figures: eventFigures(event) },
    ]);
    return true;
  }

  /**
   * Applies a batch of spend events with the outcome of `apply` for each in turn, in a few
   * writes: the ledger entries in one insert, one update per key and per team (their balances
   * and holds), per token window, per daily row and per daily total. Dedup: an event id already
   * in the ledger is skipped, and an id repeated within the batch counts once. Run it inside
   * `store.transaction`: the entries (the dedup markers) and the money they move then commit
   * together, so a batch is applied whole or not at all, and applied once however often the
   * bus delivers it.
   */
  async applyBatch(events: readonly SpendEvent[]): Promise<BatchOutcome> {
    const outcome: BatchOutcome = { applied: [], repeated: [], unknownKey: [] };
    const fresh = new Map<string, SpendEvent>();
    for (const event of events) {
      if (fresh.has(event.id)) outcome.repeated.push(event);
      else fresh.set(event.id, event);
    }
    if (fresh.size === 0) return outcome;
    for (const entry of await this.entries.find({ _id: { $in: [...fresh.keys()] } })) {
      const event = fresh.get(entry._id) as SpendEvent;
      fresh.delete(entry._id);
      outcome.repeated.push(event);
      // An entry the one-at-a-time path wrote before a crash stopped it midway (a store without
      // transactions) may have left its hold: settled now, once, as `apply` does.
      if (event.reservation_id && !event.lease_id) {
        await this.reservations.book.settleIfHeld(event.key_id, entry.team_id ?? null, event.reservation_id, event.cost_nano_usd);
      }
    }
    const keys = await this.keys.getMany([...new Set([...fresh.values()].map((event) => event.key_id))]);
    const calls: CallSpend[] = [];
    for (const event of fresh.values()) {
      const key = keys.get(event.key_id);
      if (!key) {
        outcome.unknownKey.push(event);
        continue;
      }
      outcome.applied.push(event);
      calls.push({
        key,
        holdId: event.lease_id ?? event.reservation_id,
        cost: event.cost_nano_usd,
        part: event.lease_id ? (event.lease_nano_usd ?? 0) : undefined,
      });
    }
    if (calls.length === 0) return outcome;
    const teamOf = await this.reservations.book.settleBatch(calls);
    const now = this.clock();
    const entries: LedgerEntry[] = [];
    const tokenUses: { keyId: string; teamId: string | null; tokens: number; at: number }[] = [];
    const daily = new Map<string, DailyDelta>();
    for (const [index, event] of outcome.applied.entries()) {
      const teamId = teamOf[index] ?? null;
      entries.push(entryOf(event, teamId, now));
      // Calls drawn from a lease come from keys without rate limits: their tokens count nowhere.
      if (!event.lease_id) {
        const tokens = (event.usage?.prompt_tokens ?? 0) + (event.usage?.completion_tokens ?? 0);
        tokenUses.push({ keyId: event.key_id, teamId, tokens, at: Math.min(event.occurred_at, now) });
      }
      const day = utcDay(event.occurred_at);
      const id = dailyId(day, event.key_id, event.group, teamId);
      const row = daily.get(id);
      if (row) addFigures(row.figures, eventFigures(event));
      else daily.set(id, { keyId: event.key_id, teamId, group: event.group, day, figures: eventFigures(event) });
    }
    await this.entries.insertMany(entries);
    await this.reservations.countTokensOf(tokenUses);
    await this.#writeDaily(daily.values());
    return outcome;
  }

  /** Adds the batch's daily rows, then their sums per day and group to the totals: one write per row. */
  async #writeDaily(rows: Iterable<DailyDelta>): Promise<void> {
    const totals = new Map<string, { day: string; group: string; figures: SpendFigures }>();
    for (const row of rows) {
      await this.daily.updateOne(
        { _id: dailyId(row.day, row.keyId, row.group, row.teamId), day: row.day, key_id: row.keyId, team_id: row.teamId, group: row.group },
        { $inc: figuresInc(row.figures) },
        { upsert: true },
      );
      const totalId = `${row.day}|${row.group}`;
      const total = totals.get(totalId) ?? { day: row.day, group: row.group, figures: noFigures() };
      addFigures(total.figures, row.figures);
      totals.set(totalId, total);
    }
    for (const [id, total] of totals) {
      await this.totals.updateOne({ _id: id, day: total.day, group: total.group }, { $inc: figuresInc(total.figures) }, { upsert: true });
    }
  }

  /** Lifetime spend per group of a key: its daily rows summed (an earlier release's per-group totals are not read). */
  async usageOf(keyId: string): Promise<GroupFigures[]> {
    return sumByGroup(await this.daily.find({ key_id: keyId }));
  }

  /** Billed calls, newest first, a page at a time. */
  async spendLogs(query: SpendLogQuery): Promise<{ entries: LedgerEntry[]; next: string }> {
    const limit = Math.min(query.limit > 0 ? query.limit : 100, MAX_PAGE_SIZE);
    const filter: Record<string, unknown> = {};
    if (query.keyId) filter.key_id = query.keyId;
    if (query.teamId) filter.team_id = query.teamId;
    if (query.group) filter.group = query.group;
    const range: Record<string, string> = {};
    if (query.fromMs) range.$gte = timeKey(query.fromMs);
    let upper = query.toMs ? timeKey(query.toMs) : undefined;
    if (query.after) {
      const after = decodeCursor(query.after);
      if (upper === undefined || after < upper) upper = after;
    }
    if (upper !== undefined) range.$lt = upper;
    if (Object.keys(range).length > 0) filter.sort_key = range;
    const rows = await this.entries.find(filter as Filter, { sort: { sort_key: -1 }, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { entries: page, next: rows.length > limit && last?.sort_key ? encodeCursor(last.sort_key) : '' };
  }

  /** Spend and requests per UTC day and group between two days (both included), oldest first. */
  async dailySpend(query: DailyQuery): Promise<DailyRow[]> {
    checkDayRange(query.fromDay, query.toDay);
    const filter: Record<string, unknown> = { day: { $gte: query.fromDay, $lte: query.toDay } };
    if (query.keyId) filter.key_id = query.keyId;
    if (query.teamId) filter.team_id = query.teamId;
    if (query.group) filter.group = query.group;
    // Over every key, the totals hold one row per day and group instead of one per key.
    const source = query.keyId || query.teamId ? this.daily : this.totals;
    const sums = new Map<string, DailyRow>();
    for (const row of await source.find(filter as Filter, { sort: { day: 1 } })) {
      const id = `${row.day}|${row.group}`;
      sums.set(id, addFigures(sums.get(id) ?? { day: row.day, group: row.group, ...noFigures() }, row));
    }
    return [...sums.values()].sort((a, b) => (a.day === b.day ? a.group.localeCompare(b.group) : a.day < b.day ? -1 : 1));
  }

  /**
   * The keys (or teams) that spent most between two days (both included), highest first; calls
   * made outside a team do not count for `team`.
   */
  async topSpenders(
    by: 'key' | 'team',
    range: { fromDay: string; toDay: string },
    limit: number,
  ): Promise<{ id: string; spent_nano_usd: number; requests: number }[]> {
    const rows = await this.dailySpendRows(range);
    const sums = new Map<string, { id: string; spent_nano_usd: number; requests: number }>();
    for (const row of rows) {
      const id = by === 'key' ? row.key_id : row.team_id;
      if (!id) continue;
      const sum = sums.get(id) ?? { id, spent_nano_usd: 0, requests: 0 };
      sum.spent_nano_usd += row.spent_nano_usd;
      sum.requests += row.requests;
      sums.set(id, sum);
    }
    return [...sums.values()]
      .sort((a, b) => b.spent_nano_usd - a.spent_nano_usd || b.requests - a.requests || a.id.localeCompare(b.id))
      .slice(0, Math.min(limit > 0 ? limit : 10, 100));
  }

  /** Every key's daily rows between two days (both included), after checking the range. */
  private async dailySpendRows(range: { fromDay: string; toDay: string }): Promise<DailyRecord[]> {
    checkDayRange(range.fromDay, range.toDay);
    return this.daily.find({ day: { $gte: range.fromDay, $lte: range.toDay } });
  }

  /** What a key (or a team) spent from `startMs` (a UTC midnight: every period starts on one) until now. */
  async spentSince(account: { keyId?: string; teamId?: string }, startMs: number): Promise<number> {
    const filter: Record<string, unknown> = { day: { $gte: utcDay(startMs) } };
    if (account.keyId) filter.key_id = account.keyId;
    if (account.teamId) filter.team_id = account.teamId;
    let spent = 0;
    for (const row of await this.daily.find(filter as Filter)) spent += row.spent_nano_usd;
    return spent;
  }

  /** A key's spend per group from `startMs` (a UTC midnight) on. */
  async groupsSince(keyId: string, startMs: number): Promise<GroupFigures[]> {
    return sumByGroup(await this.daily.find({ key_id: keyId, day: { $gte: utcDay(startMs) } }));
  }

  /** The key's last `days` UTC days, oldest first, today included, days without spend as zeros. */
  async recentDays(keyId: string, days: number): Promise<DayFigures[]> {
    const today = Math.floor(this.clock() / DAY_MS) * DAY_MS;
    const first = today - (days - 1) * DAY_MS;
    const rows = await this.dailySpend({ keyId, fromDay: utcDay(first), toDay: utcDay(today) });
    const byDay = new Map<string, DayFigures>();
    for (let at = first; at <= today; at += DAY_MS) byDay.set(utcDay(at), { day: utcDay(at), ...noFigures() });
    for (const row of rows) {
      const sum = byDay.get(row.day);
      if (sum) addFigures(sum, row);
    }
    return [...byDay.values()];
  }
}

/** Refuses a day range that is not two days in order, at most MAX_DAYS apart. */
function checkDayRange(fromDay: string, toDay: string): void {
  const from = dayStart(fromDay);
  const to = dayStart(toDay);
  if (from === undefined) throw invalid('from', 'from must be a day, YYYY-MM-DD');
  if (to === undefined) throw invalid('to', 'to must be a day, YYYY-MM-DD');
  if (to < from) throw invalid('to', 'to must not be before from');
  if ((to - from) / DAY_MS >= MAX_DAYS) throw invalid('from', `a range covers at most ${MAX_DAYS} days`);
}

/** The id of a key's daily row on a group (and the team it was in). */
function dailyId(day: string, keyId: string, group: string, teamId: string | null): string {
  return `${day}|${keyId}|${group}|${teamId ?? ''}`;
}

function sumByGroup(rows: readonly DailyRecord[]): GroupFigures[] {
  const byGroup = new Map<string, GroupFigures>();
  for (const row of rows) byGroup.set(row.group, addFigures(byGroup.get(row.group) ?? { group: row.group, ...noFigures() }, row));
  return [...byGroup.values()].sort((a, b) => a.group.localeCompare(b.group));
}

/** Page cursors are opaque to callers: the last row's order key, base64url. */
function encodeCursor(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  const key = /^[A-Za-z0-9_-]{1,400}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!/^\d{13}:[\x21-\x7e]{1,256}$/.test(key)) throw invalid('after', 'after must be a next_after value from an earlier page');
  return key;
}
