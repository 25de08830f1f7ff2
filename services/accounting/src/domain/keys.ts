import { ALL_MODELS, keyAllows } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import { GroupIndex, type GatewayConfig } from '@gateway/config';
import type { Collection, Doc, DocumentStore } from '@gateway/store';
import { hashSecret, newKeyId, newSecret, sameHash, secretHint } from './secrets.js';

/** A key as stored: never the secret, only its hash. */
export interface KeyRecord extends Doc {
  hash: string;
  hint: string;
  name: string;
  /** Group ids, or ["*"]. */
  models: string[];
  budget_nano_usd: number;
  /** Requests per minute; 0: no limit. */
  rpm: number;
  /** Tokens per minute; 0 (or absent on older keys): no limit. */
  tpm?: number;
  created_at: Date;
  revoked_at: Date | null;
  spent_nano_usd: number;
  reserved_nano_usd: number;
  /**
   * budget − spent − reserved, kept in step with every change so that "does this fit" is one
   * conditional atomic update (stores cannot compare two fields in a filter).
   */
  available_nano_usd: number;
  /** Reservations held by calls in flight, by reservation id: kept on the key so that holding and settling are single atomic updates. */
  holds?: Record<string, { amount: number; at: number; group: string }>;
}

export interface NewKey {
  name: string;
  models: readonly string[];
  budgetNanoUsd: number;
  rpm: number;
  tpm?: number;
}

export { ALL_MODELS, keyAllows };
export const KEYS_COLLECTION = 'accounting_keys';
const MAX_NAME_LENGTH = 200;
const MAX_PAGE_SIZE = 1000;
const DEFAULT_PAGE_SIZE = 100;

export class KeyRepository {
  private constructor(
    private readonly keys: Collection<KeyRecord>,
    private readonly groups: GroupIndex,
  ) {}

  static async open(store: DocumentStore, config: GatewayConfig): Promise<KeyRepository> {
    const keys = await store.collection<KeyRecord>(KEYS_COLLECTION, [{ field: 'hash', unique: true }, { field: 'created_at' }]);
    return new KeyRepository(keys, new GroupIndex(config.groups));
  }

  /** Creates a key and returns it with its secret, which exists nowhere else from now on. */
  async create(input: NewKey, now = new Date()): Promise<{ key: KeyRecord; secret: string }> {
    const name = input.name.trim();
    if (name === '' || name.length > MAX_NAME_LENGTH) {
      throw new GatewayError('invalid_request', { param: 'name', message: `name must be 1 to ${MAX_NAME_LENGTH} characters` });
    }
    const models = this.#resolveModels(input.models);
    if (!Number.isSafeInteger(input.budgetNanoUsd) || input.budgetNanoUsd < 0) {
      throw new GatewayError('invalid_request', { param: 'budget_usd', message: 'budget_usd must be a number >= 0' });
    }
    if (!Number.isInteger(input.rpm) || input.rpm < 0) {
      throw new GatewayError('invalid_request', { param: 'rpm', message: 'rpm must be a whole number >= 1' });
    }
    const tpm = input.tpm ?? 0;
    if (!Number.isInteger(tpm) || tpm < 0) {
      throw new GatewayError('invalid_request', { param: 'tpm', message: 'tpm must be a whole number >= 1' });
    }
    const secret = newSecret();
    const key: KeyRecord = {
      _id: newKeyId(),
      hash: hashSecret(secret),
      hint: secretHint(secret),
      name,
      models,
      budget_nano_usd: input.budgetNanoUsd,
      rpm: input.rpm,
      tpm,
      created_at: now,
      revoked_at: null,
      spent_nano_usd: 0,
      reserved_nano_usd: 0,
      available_nano_usd: input.budgetNanoUsd,
    };
    await this.keys.insertOne(key);
    return { key, secret };
  }

  /** The active key whose secret hashes to `hash`; revoked and unknown keys both fail alike. */
  async authenticate(hash: string): Promise<KeyRecord> {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new GatewayError('invalid_api_key');
    const key = await this.keys.findOne({ hash });
    if (!key || !sameHash(key.hash, hash) || key.revoked_at !== null) throw new GatewayError('invalid_api_key');
    return key;
  }

  async get(id: string): Promise<KeyRecord> {
    const key = id ? await this.keys.findOne({ _id: id }) : null;
    if (!key) throw new GatewayError('key_not_found');
    return key;
  }

  /** Keys in id order (ids are random), a page at a time; the token is the last id of the previous page. */
  async list(pageSize: number, pageToken: string): Promise<{ keys: KeyRecord[]; nextPageToken: string }> {
    const limit = Math.min(pageSize > 0 ? pageSize : DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const keys = await this.keys.find(pageToken ? { _id: { $gt: pageToken } } : {}, { sort: { _id: 1 }, limit: limit + 1 });
    const page = keys.slice(0, limit);
    return { keys: page, nextPageToken: keys.length > limit ? (page[page.length - 1]?._id ?? '') : '' };
  }

  /** Revokes once; revoking again returns the key as it is. */
  async revoke(id: string, now = new Date()): Promise<{ key: KeyRecord; changed: boolean }> {
    const revoked = await this.keys.findOneAndUpdate({ _id: id, revoked_at: null }, { $set: { revoked_at: now } });
    if (revoked) return { key: revoked, changed: true };
    return { key: await this.get(id), changed: false };
  }

  /** Holds `amount` under `holdId` if it fits and is not held yet: one conditional atomic update. */
  async hold(id: string, holdId: string, amount: number, group: string, now = Date.now()): Promise<KeyRecord | null> {
    return this.keys.findOneAndUpdate(
      { _id: id, revoked_at: null, available_nano_usd: { $gte: amount }, [`holds.${holdId}`]: { $exists: false } },
      { $inc: { reserved_nano_usd: amount, available_nano_usd: -amount }, $set: { [`holds.${holdId}`]: { amount, at: now, group } } },
    );
  }

  /**
   * Records spend on the key; when `holdId` is still held, the hold ends in the same atomic
   * update (its amount returns to available, the real cost leaves it). Returns false when the
   * hold was not there (released already, or never held), having done nothing.
   */
  async settle(id: string, holdId: string, amount: number, cost: number): Promise<boolean> {
    const done = await this.keys.updateOne(
      { _id: id, [`holds.${holdId}`]: { $exists: true } },
      {
        $inc: { spent_nano_usd: cost, reserved_nano_usd: -amount, available_nano_usd: amount - cost },
        $unset: { [`holds.${holdId}`]: true },
      },
    );
    return done;
  }

  /** Spend with nothing held for it. */
  async spend(id: string, cost: number): Promise<void> {
    await this.keys.updateOne({ _id: id }, { $inc: { spent_nano_usd: cost, available_nano_usd: -cost } });
  }

  /**
   * Takes `part` off a hold that stays open (a lease: one of its calls ended), recording `cost`
   * as spend in the same atomic update. False, having done nothing, when the hold is not there
   * or holds no more than `part` (then the caller ends it whole).
   */
  async shrink(id: string, holdId: string, part: number, cost: number): Promise<boolean> {
    return this.keys.updateOne(
      { _id: id, [`holds.${holdId}.amount`]: { $gt: part } },
      { $inc: { spent_nano_usd: cost, reserved_nano_usd: -part, available_nano_usd: part - cost, [`holds.${holdId}.amount`]: -part } },
    );
  }

  /** Ends a hold without spend; false when it was not held. */
  async release(id: string, holdId: string, amount: number): Promise<boolean> {
    return this.keys.updateOne(
      { _id: id, [`holds.${holdId}`]: { $exists: true } },
      { $inc: { reserved_nano_usd: -amount, available_nano_usd: amount }, $unset: { [`holds.${holdId}`]: true } },
    );
  }

  /** Overwrites the balance columns (the memory book's write-behind). */
  async writeBalance(id: string, spent: number, reserved: number, available: number): Promise<void> {
    await this.keys.updateOne({ _id: id }, { $set: { spent_nano_usd: spent, reserved_nano_usd: reserved, available_nano_usd: available } });
  }

  /**
   * The key holding `holdId`: read by id when the caller names the key, else a scan of every
   * key's holds (no index can cover a dynamic field name), kept for callers that do not.
   */
  async findByHold(holdId: string, keyId = ''): Promise<KeyRecord | null> {
    if (keyId) return this.keys.findOne({ _id: keyId, [`holds.${holdId}`]: { $exists: true } });
    return this.keys.findOne({ [`holds.${holdId}`]: { $exists: true } });
  }

  /** Keys written before `available_nano_usd` existed get it computed once. */
  async backfillAvailable(): Promise<number> {
    const old = await this.keys.find({ available_nano_usd: { $exists: false } });
    for (const key of old) {
      await this.keys.updateOne(
        { _id: key._id, available_nano_usd: { $exists: false } },
        {
          $set: { available_nano_usd: key.budget_nano_usd - (key.spent_nano_usd ?? 0) - (key.reserved_nano_usd ?? 0) },
        },
      );
    }
    return old.length;
  }

  async withHolds(): Promise<KeyRecord[]> {
    return this.keys.find({ reserved_nano_usd: { $gt: 0 } });
  }

  /** Aliases become group ids; unknown names are refused so a typo cannot grant nothing silently. */
  #resolveModels(models: readonly string[]): string[] {
    if (models.length === 0) {
      throw new GatewayError('invalid_request', { param: 'models', message: 'models must list at least one group, or "*"' });
    }
    const ids = new Set<string>();
    for (const model of models) {
      if (model === ALL_MODELS) {
        ids.add(ALL_MODELS);
        continue;
      }
      const group = this.groups.resolve(model);
      if (!group) throw new GatewayError('invalid_request', { param: 'models', message: `unknown model group "${model}"` });
      ids.add(group.id);
    }
    return ids.has(ALL_MODELS) ? [ALL_MODELS] : [...ids].sort();
  }
}
