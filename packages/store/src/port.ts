// The store port: the small Mongo-style document API the services use. Both adapters (MongoDB
// and the embedded SQLite store) implement exactly this, and one contract suite
// (test/contract.ts) holds them to it.

/** Every stored document has a string `_id` chosen by the caller. */
export interface Doc {
  _id: string;
}

/**
 * Query filter in MongoDB syntax, limited to what both adapters support: equality on (dotted)
 * fields and the operators $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, plus $or / $and.
 */
export type Filter = Readonly<Record<string, unknown>>;

/** Update in MongoDB syntax, limited to $set, $inc, $unset and $setOnInsert-free upserts. */
export interface Update {
  $set?: Readonly<Record<string, unknown>>;
  $inc?: Readonly<Record<string, number>>;
  $unset?: Readonly<Record<string, true | ''>>;
}

/** An index on one field; unique or TTL (the field holds a Date) if asked. */
export interface FieldIndexSpec {
  field: string;
  unique?: boolean;
  /** TTL: the field holds a Date; documents are removed this many seconds after it. */
  expireAfterSeconds?: number;
}

/**
 * An index on several fields in order: a query with equality on the leading ones and a range or
 * sort on the next one reads only its rows, in order.
 */
export interface CompoundIndexSpec {
  fields: readonly string[];
  unique?: boolean;
}

export type IndexSpec = FieldIndexSpec | CompoundIndexSpec;

/** The fields an index covers, in order. */
export function indexFields(index: IndexSpec): readonly string[] {
  return 'fields' in index ? index.fields : [index.field];
}

export interface FindOptions {
  sort?: Readonly<Record<string, 1 | -1>>;
  limit?: number;
}

export interface UpdateOptions {
  /** Insert when nothing matches: the filter's equality fields plus the update. */
  upsert?: boolean;
}

export interface Collection<T extends Doc> {
  /** Fails with StoreError `duplicate_key` when `_id` or a unique field is taken. */
  insertOne(doc: T): Promise<void>;
  /**
   * Inserts the documents with one write operation (nothing for none). Fails with StoreError
   * `duplicate_key` when one's `_id` or a unique field is taken: on the embedded store then
   * none is inserted; on MongoDB those before it are, unless inside `transaction`.
   */
  insertMany(docs: readonly T[]): Promise<void>;
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /** Updates at most one document; resolves to whether one matched (or was upserted). */
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<boolean>;
  /** Atomically updates one matching document and returns it as it is after the update. */
  findOneAndUpdate(filter: Filter, update: Update, options?: UpdateOptions): Promise<T | null>;
  deleteMany(filter: Filter): Promise<number>;
  countDocuments(filter: Filter): Promise<number>;
}

/** A write operation, named after the collection method that issues it. */
export type StoreWriteOp = 'insert_one' | 'insert_many' | 'update_one' | 'find_one_and_update' | 'delete_many';

/**
 * Told of every write operation a store's collections issue: one per call, however many
 * documents it writes, and a conditional write that matched nothing counts too (it was sent).
 * The process's `gateway_store_writes_total` is fed this way.
 */
export type StoreWriteObserver = (collection: string, op: StoreWriteOp) => void;

export interface DocumentStore {
  readonly kind: 'embedded' | 'mongodb';
  /** Opens (creating when needed) a collection and its indexes. */
  collection<T extends Doc>(name: string, indexes?: readonly IndexSpec[]): Promise<Collection<T>>;
  /**
   * Runs `work` so that its writes land together or not at all where the store can do that
   * cheaply: the embedded store runs it as one transaction (work must await only this store's
   * calls). MongoDB runs it as it is, each write atomic on its own; callers stay correct either
   * way (their writes are idempotent), the transaction only closes the window a crash could hit.
   */
  atomically<R>(work: () => Promise<R>): Promise<R>;
  /** Whether `transaction` can run: always on the embedded store; on MongoDB, on a replica set or a sharded cluster. */
  readonly transactional: boolean;
  /**
   * Runs `work` as one transaction: its writes commit together or not at all, and no other
   * writer's change lands between its reads and its writes. The store may run `work` again from
   * the start (MongoDB retries a transaction that conflicted with another writer), so it must
   * only read and write this store, await nothing else, and let the store's errors through.
   * Fails with StoreError `unsupported` where `transactional` is false (a standalone MongoDB).
   */
  transaction<R>(work: () => Promise<R>): Promise<R>;
  /** Resolves while the store can serve requests; rejects with StoreError `unavailable` otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `invalid_query`: a filter or update the adapter cannot run (a bug in the caller, not bad input).
 * `unsupported`: something this deployment of the store cannot do (a transaction on a standalone MongoDB).
 */
export type StoreErrorCode = 'duplicate_key' | 'unavailable' | 'invalid_query' | 'unsupported';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof StoreError && error.code === 'duplicate_key';
}
