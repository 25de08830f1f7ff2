import { ALL_MODELS, keyAllows } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import { GroupIndex, type GatewayConfig } from '@gateway/config';
import type { Collection, Doc, DocumentStore } from '@gateway/store';
import { type AccountRecord, Balances } from './balances.js';
import { type BudgetPeriod, periodStartOf } from './periods.js';
import { hashSecret, newKeyId, newSecret, sameHash, secretHint } from './secrets.js';
import { checkAmount, checkExpiry, checkFlag, checkLimit, checkMetadata, checkName, resolveModels } from './validation.js';

/** A key as stored: never the secret, only its hash (and, during a rotation's grace, the old one's). */
export interface KeyRecord extends AccountRecord {
  hash: string;
  hint: string;
  name: string;
  /** Group ids, or ["*"]. */
  models: string[];
  /** Requests per minute; 0: no limit. */
  rpm: number;
  /** Tokens per minute; 0 (or absent on older keys): no limit. */
  tpm?: number;
  revoked_at: Date | null;
  team_id?: string | null;
  metadata?: Record<string, string>;
  expires_at?: Date | null;
  rotated_at?: Date | null;
  /** Until when the secret before the last rotation still works (null: it does not). */
  previous_secret_expires_at?: Date | null;
  /** The Responses API stores nothing for this key; absent on older keys: storage on. */
  response_storage_off?: boolean;
}

/**
 * The secret before a key's last rotation, by its hash, while its grace lasts. Kept apart from
 * the key document so that the key (updated on every hold) carries no index for it.
 */
interface PreviousSecret extends Doc {
  key_id: string;
  expires_at: Date;
}

export interface NewKey {
  name: string;
  models: readonly string[];
  budgetNanoUsd: number;
  rpm: number;
  tpm?: number;
  budgetPeriod?: BudgetPeriod;
  /** Unix ms; 0 or absent: never. */
  expiresAtMs?: number;
  teamId?: string | null;
  metadata?: Readonly<Record<string, string>>;
  /** Default false: responses are stored. */
  responseStorageOff?: boolean;
}

/** What an update may change; absent fields stay as they are. */
export interface KeyChanges {
  name?: string;
  models?: readonly string[];
  budgetNanoUsd?: number;
  rpm?: number;
  tpm?: number;
  budgetPeriod?: BudgetPeriod;
  /** 0: never. */
  expiresAtMs?: number;
  /** null: no team. */
  teamId?: string | null;
  metadata?: Readonly<Record<string, string>>;
  responseStorageOff?: boolean;
}

/** A key a secret authenticated, and until when that secret works (undefined: no end). */
export interface Authenticated {
  key: KeyRecord;
  validUntilMs: number | undefined;
}

export { ALL_MODELS, keyAllows };
export const KEYS_COLLECTION = 'accounting_keys';
export const PREVIOUS_SECRETS_COLLECTION = 'accounting_previous_secrets';
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;
const MAX_PAGE_SIZE = 1000;
const DEFAULT_PAGE_SIZE = 100;

export class KeyRepository {
  readonly balances: Balances<KeyRecord>;

  private constructor(
    private readonly keys: Collection<KeyRecord>,
    private readonly previousSecrets: Collection<PreviousSecret>,
    private readonly groups: GroupIndex,
    private readonly clock: () => number,
  ) {
    this.balances = new Balances(keys, { revoked_at: null }, clock);
  }

  static async open(store: DocumentStore, config: GatewayConfig, clock: () => number = Date.now): Promise<KeyRepository> {
    // Every index on keys is maintained on every hold and settlement: only the ones lookups need.
    const keys = await store.collection<KeyRecord>(KEYS_COLLECTION, [{ field: 'hash', unique: true }, { field: 'created_at' }]);
    const previousSecrets = await store.collection<PreviousSecret>(PREVIOUS_SECRETS_COLLECTION, [
      { field: 'key_id' },
      { field: 'expires_at', expireAfterSeconds: 0 },
    ]);
    return new KeyRepository(keys, previousSecrets, new GroupIndex(config.groups), clock);
  }

  /** Creates a key and returns it with its secret, which exists nowhere else from now on. */
  async create(input: NewKey): Promise<{ key: KeyRecord; secret: string }> {
    const now = this.clock();
    const name = checkName(input.name);
    const models = resolveModels(this.groups, input.models);
    const budget = checkAmount('budget_usd', input.budgetNanoUsd);
    const rpm = checkLimit('rpm', input.rpm);
    const tpm = checkLimit('tpm', input.tpm ?? 0);
    const expiresAt = checkExpiry(input.expiresAtMs ?? 0, now);
    const metadata = checkMetadata(input.metadata ?? {});
    const storageOff = checkFlag('response_storage_off', input.responseStorageOff ?? false);
    const period = input.budgetPeriod ?? null;
    const createdAt = new Date(now);
    const secret = newSecret();
    const key: KeyRecord = {
      _id: newKeyId(),
      hash: hashSecret(secret),
      hint: secretHint(secret),
      name,
      models,
      budget_nano_usd: budget,
      budget_period: period,
      // A key with a period starts in the period containing its creation.
      period_start_ms: periodStartOf(period, now, now),
      period_spent_nano_usd: 0,
      rpm,
      tpm,
      created_at: createdAt,
      revoked_at: null,
      team_id: input.teamId ?? null,
      metadata,
      expires_at: expiresAt,
      rotated_at: null,
      previous_secret_expires_at: null,
      response_storage_off: storageOff,
      spent_nano_usd: 0,
      reserved_nano_usd: 0,
      available_nano_usd: budget,
    };
    await this.keys.insertOne(key);
    return { key, secret };
  }

  /**
   * The active key a secret hashes to: its current secret, or the one before its last rotation
   * while that one's grace lasts. Unknown, revoked and past-grace secrets fail alike; an expired
   * key says so.
   */
  async authenticate(hash: string): Promise<Authenticated> {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new GatewayError('invalid_api_key');
    const now = this.clock();
    const key = await this.keys.findOne({ hash });
    if (key && sameHash(key.hash, hash) && key.revoked_at === null) {
      return { key: this.#unexpired(key, now), validUntilMs: key.expires_at?.getTime() };
    }
    const secret = await this.previousSecrets.findOne({ _id: hash });
    const graceEnd = secret?.expires_at.getTime() ?? 0;
    const previous = secret && sameHash(secret._id, hash) && graceEnd > now ? await this.keys.findOne({ _id: secret.key_id }) : null;
    if (previous && previous.revoked_at === null) {
      const expiry = previous.expires_at?.getTime();
      return { key: this.#unexpired(previous, now), validUntilMs: expiry === undefined ? graceEnd : Math.min(expiry, graceEnd) };
    }
    throw new GatewayError('invalid_api_key');
  }

  #unexpired(key: KeyRecord, now: number): KeyRecord {
    if (key.expires_at && key.expires_at.getTime() <= now) {
      throw new GatewayError('invalid_api_key', { message: `This API key expired at ${key.expires_at.toISOString()}.` });
    }
    return key;
  }

  /** Refuses a key that can no longer be used for calls (revoked or expired). */
  usable(key: KeyRecord): void {
    if (key.revoked_at !== null) throw new GatewayError('invalid_api_key');
    this.#unexpired(key, this.clock());
  }

  async get(id: string): Promise<KeyRecord> {
    const key = id ? await this.keys.findOne({ _id: id }) : null;
    if (!key) throw new GatewayError('key_not_found');
    return key;
  }

  /** The keys of `ids` that exist, by id, read at once. */
  async getMany(ids: readonly string[]): Promise<Map<string, KeyRecord>> {
    const found = ids.length === 0 ? [] : await this.keys.find({ _id: { $in: [...ids] } });
    return new Map(found.map((key) => [key._id, key]));
  }

  /** The key in its current budget period (a reset that came due is applied first). */
  async current(id: string): Promise<KeyRecord> {
    return this.balances.current(await this.get(id));
  }

  /** Keys in id order (ids are random), a page at a time; the token is the last id of the previous page. */
  async list(pageSize: number, pageToken: string): Promise<{ keys: KeyRecord[]; nextPageToken: string }> {
    const limit = Math.min(pageSize > 0 ? pageSize : DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const keys = await this.keys.find(pageToken ? { _id: { $gt: pageToken } } : {}, { sort: { _id: 1 }, limit: limit + 1 });
    const page = keys.slice(0, limit);
    return { keys: page, nextPageToken: keys.length > limit ? (page[page.length - 1]?._id ?? '') : '' };
  }

  /** Keys of a team that are not revoked, up to `limit`. */
  async activeInTeam(teamId: string, limit: number): Promise<KeyRecord[]> {
    return this.keys.find({ team_id: teamId, revoked_at: null }, { limit });
  }

  /** Revokes once; revoking again returns the key as it is. */
  async revoke(id: string): Promise<{ key: KeyRecord; changed: boolean }> {
    const revoked = await this.keys.findOneAndUpdate({ _id: id, revoked_at: null }, { $set: { revoked_at: new Date(this.clock()) } });
    if (revoked) return { key: revoked, changed: true };
    return { key: await this.get(id), changed: false };
  }

  /**
   * Applies `changes` (already checked against teams by the caller) and returns the key before
   * and after. Balance fields move through the balance rules: a new budget moves what is
   * available by the difference, a new period starts at its current boundary with
   * `spentSince(start)` as its spend so far.
   */
  async update(
    id: string,
    changes: KeyChanges,
    spentSince: (start: number) => Promise<number>,
  ): Promise<{ before: KeyRecord; after: KeyRecord }> {
    const before = await this.get(id);
    if (before.revoked_at !== null) throw new GatewayError('key_revoked');
    const set: Record<string, unknown> = {};
    if (changes.name !== undefined) set.name = checkName(changes.name);
    if (changes.models !== undefined) set.models = resolveModels(this.groups, changes.models);
    if (changes.rpm !== undefined) set.rpm = checkLimit('rpm', changes.rpm);
    if (changes.tpm !== undefined) set.tpm = checkLimit('tpm', changes.tpm);
    if (changes.expiresAtMs !== undefined) set.expires_at = checkExpiry(changes.expiresAtMs, this.clock());
    if (changes.teamId !== undefined) set.team_id = changes.teamId;
    if (changes.metadata !== undefined) set.metadata = checkMetadata(changes.metadata);
    if (changes.responseStorageOff !== undefined) set.response_storage_off = checkFlag('response_storage_off', changes.responseStorageOff);
    const budget = changes.budgetNanoUsd === undefined ? undefined : checkAmount('budget_usd', changes.budgetNanoUsd);
    if (Object.keys(set).length > 0 && !(await this.keys.updateOne({ _id: id, revoked_at: null }, { $set: set }))) {
      throw new GatewayError('key_revoked');
    }
    if (budget !== undefined && budget !== before.budget_nano_usd) await this.balances.setBudget(id, budget);
    if (changes.budgetPeriod !== undefined && changes.budgetPeriod !== (before.budget_period ?? null)) {
      await this.balances.setPeriod(id, changes.budgetPeriod, spentSince);
    }
    return { before, after: await this.get(id) };
  }

  /**
   * Gives the key a new secret. The old one keeps working for `graceSeconds` (0: not at all);
   * an earlier rotation's old secret stops at once, since only one old secret is kept.
   */
  async rotate(id: string, graceSeconds: number): Promise<{ before: KeyRecord; after: KeyRecord; secret: string }> {
    if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_GRACE_SECONDS) {
      throw new GatewayError('invalid_request', {
        param: 'grace_seconds',
        message: `grace_seconds must be a whole number from 0 to ${MAX_GRACE_SECONDS} (7 days)`,
      });
    }
    const before = await this.get(id);
    if (before.revoked_at !== null) throw new GatewayError('key_revoked');
    const now = this.clock();
    const secret = newSecret();
    const graceEnd = graceSeconds > 0 ? new Date(now + graceSeconds * 1000) : null;
    const rotated = await this.keys.findOneAndUpdate(
      { _id: id, hash: before.hash, revoked_at: null },
      { $set: { hash: hashSecret(secret), hint: secretHint(secret), rotated_at: new Date(now), previous_secret_expires_at: graceEnd } },
    );
    // Revoked or rotated by someone else in between: say what it is now.
    if (!rotated) {
      const latest = await this.get(id);
      if (latest.revoked_at !== null) throw new GatewayError('key_revoked');
      throw new GatewayError('invalid_request', { message: 'The key was rotated by another request at the same time; try again.' });
    }
    // Only the secret just replaced may keep working: an earlier rotation's grace ends now.
    await this.previousSecrets.deleteMany({ key_id: id });
    if (graceEnd) await this.previousSecrets.insertOne({ _id: before.hash, key_id: id, expires_at: graceEnd });
    return { before, after: rotated, secret };
  }

  /** Keys written by earlier releases get the fields they lack, computed once. */
  async backfill(): Promise<number> {
    const old = await this.keys.find({ $or: [{ available_nano_usd: { $exists: false } }, { period_start_ms: { $exists: false } }] });
    for (const key of old) {
      const spent = key.spent_nano_usd ?? 0;
      await this.keys.updateOne(
        { _id: key._id, period_start_ms: { $exists: false } },
        {
          $set: {
            budget_period: null,
            period_start_ms: key.created_at.getTime(),
            period_spent_nano_usd: spent,
            available_nano_usd: key.available_nano_usd ?? key.budget_nano_usd - spent - (key.reserved_nano_usd ?? 0),
          },
        },
      );
    }
    return old.length;
  }

  async withHolds(): Promise<KeyRecord[]> {
    return this.keys.find({ reserved_nano_usd: { $gt: 0 } });
  }

  /** The key holding `holdId`, read by id when the caller names the key, else found among every key's holds. */
  async findByHold(holdId: string, keyId = ''): Promise<KeyRecord | null> {
    if (keyId) return this.keys.findOne({ _id: keyId, [`holds.${holdId}`]: { $exists: true } });
    return this.keys.findOne({ [`holds.${holdId}`]: { $exists: true } });
  }
}
