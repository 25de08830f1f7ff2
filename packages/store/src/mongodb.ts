import { AsyncLocalStorage } from 'node:async_hooks';
import { MongoClient, MongoServerError, type ClientSession, type Db, type Document } from 'mongodb';
import {
  indexFields,
  StoreError,
  type Collection,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type StoreWriteObserver,
  type Update,
  type UpdateOptions,
} from './port.js';

// The MongoDB adapter (official driver). TTL indexes are MongoDB's own; unique indexes back the
// at-most-once rules (ledger event ids, key hashes). `transaction` runs on a replica set or a
// sharded cluster (what production MongoDB is): its session travels to the collections' calls
// in an AsyncLocalStorage, so callers' code is the same inside a transaction as outside.

const DUPLICATE_KEY = 11000;

function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

function translate(error: unknown): unknown {
  if (isDuplicateKeyError(error)) return new StoreError('duplicate_key', 'duplicate key', { cause: error });
  return error;
}

class MongoCollection<T extends Doc> implements Collection<T> {
  // The driver's generic filter types are stricter than this port's; the port's contract tests
  // are what keeps the two in line.
  constructor(
    private readonly collection: import('mongodb').Collection<Document>,
    private readonly onWrite: StoreWriteObserver,
    /** The session of the transaction under way in this async context, if any. */
    private readonly session: () => ClientSession | undefined,
  ) {}

  /** The options every call passes: the transaction's session, when there is one. */
  #inSession(): { session?: ClientSession } {
    const session = this.session();
    return session ? { session } : {};
  }

  async insertOne(doc: T): Promise<void> {
    this.onWrite(this.collection.collectionName, 'insert_one');
    try {
      await this.collection.insertOne({ ...doc } as Document, this.#inSession());
    } catch (error) {
      throw translate(error);
    }
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    if (docs.length === 0) return;
    this.onWrite(this.collection.collectionName, 'insert_many');
    try {
      await this.collection.insertMany(
        docs.map((doc) => ({ ...doc }) as Document),
        { ordered: true, ...this.#inSession() },
      );
    } catch (error) {
      throw translate(error);
    }
  }

  async findOne(filter: Filter): Promise<T | null> {
    return (await this.collection.findOne(filter as Document, this.#inSession())) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.collection.find(filter as Document, this.#inSession());
    if (options.sort) cursor = cursor.sort(options.sort as Record<string, 1 | -1>);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as T[];
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<boolean> {
    this.onWrite(this.collection.collectionName, 'update_one');
    return this.#retryUpsert(options, async () => {
      const result = await this.collection.updateOne(filter as Document, update as Document, {
        upsert: options.upsert ?? false,
        ...this.#inSession(),
      });
      return result.matchedCount + result.upsertedCount > 0;
    });
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    this.onWrite(this.collection.collectionName, 'find_one_and_update');
    return this.#retryUpsert(options, async () => {
      const doc = await this.collection.findOneAndUpdate(filter as Document, update as Document, {
        upsert: options.upsert ?? false,
        returnDocument: 'after',
        includeResultMetadata: false,
        ...this.#inSession(),
      });
      return doc as T | null;
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.onWrite(this.collection.collectionName, 'delete_many');
    return (await this.collection.deleteMany(filter as Document, this.#inSession())).deletedCount;
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.collection.countDocuments(filter as Document, this.#inSession());
  }

  // Two concurrent upserts of the same new document can both try the insert; MongoDB answers
  // the loser with a duplicate key, and retrying turns it into the update it should have been.
  // Not inside a transaction: the server has aborted it, and the whole transaction goes again.
  async #retryUpsert<R>(options: UpdateOptions, run: () => Promise<R>): Promise<R> {
    try {
      return await run();
    } catch (error) {
      if (options.upsert && isDuplicateKeyError(error) && !this.session())
        return run().catch((e: unknown) => {
          throw translate(e);
        });
      throw translate(error);
    }
  }
}

export interface MongoStoreOptions {
  /** The database when the URI's path names none (default "gateway"). */
  dbName?: string;
  /** Told of each write operation the collections issue (the process's write counter). */
  onWrite?: StoreWriteObserver;
}

export class MongoStore implements DocumentStore {
  readonly kind = 'mongodb';
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #onWrite: StoreWriteObserver;
  readonly transactional: boolean;
  /** The session of the transaction each async context is in. */
  readonly #sessions = new AsyncLocalStorage<ClientSession>();

  private constructor(client: MongoClient, db: Db, onWrite: StoreWriteObserver, transactional: boolean) {
    this.#client = client;
    this.#db = db;
    this.#onWrite = onWrite;
    this.transactional = transactional;
  }

  /** Connects to `uri`; the database is the URI's path, else `dbName`, else "gateway". */
  static async connect(uri: string, options: MongoStoreOptions = {}): Promise<MongoStore> {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000, appName: 'ai-gateway' });
    await client.connect();
    const fromUri = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^/?]+)/.exec(uri)?.[1];
    const db = client.db(fromUri ? decodeURIComponent(fromUri) : (options.dbName ?? 'gateway'));
    // Transactions need a replica set (setName) or mongos (isdbgrid); a standalone server has none.
    const hello = await client.db('admin').command({ hello: 1 });
    const transactional = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
    return new MongoStore(client, db, options.onWrite ?? (() => {}), transactional);
  }

  async collection<T extends Doc>(name: string, indexes: readonly IndexSpec[] = []): Promise<Collection<T>> {
    const collection = this.#db.collection<Document>(name);
    for (const index of indexes) {
      await collection.createIndex(Object.fromEntries(indexFields(index).map((field) => [field, 1])), {
        unique: index.unique ?? false,
        ...('field' in index && index.expireAfterSeconds !== undefined ? { expireAfterSeconds: index.expireAfterSeconds } : {}),
      });
    }
    return new MongoCollection<T>(collection, this.#onWrite, () => this.#sessions.getStore());
  }

  async atomically<R>(work: () => Promise<R>): Promise<R> {
    return work();
  }

  async transaction<R>(work: () => Promise<R>): Promise<R> {
    if (!this.transactional) throw new StoreError('unsupported', 'transactions need a MongoDB replica set or sharded cluster');
    // Inside a transaction already: the work is part of it.
    if (this.#sessions.getStore()) return work();
    const session = this.#client.startSession();
    try {
      // withTransaction commits, and runs the work again on a transient error (a write conflict).
      return await session.withTransaction(() => this.#sessions.run(session, work), {
        readConcern: { level: 'snapshot' },
        writeConcern: { w: 'majority' },
      });
    } finally {
      await session.endSession();
    }
  }

  async ping(): Promise<void> {
    try {
      await this.#db.command({ ping: 1 }, { timeoutMS: 2000 });
    } catch (error) {
      throw new StoreError('unavailable', 'MongoDB did not answer a ping', { cause: error });
    }
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
