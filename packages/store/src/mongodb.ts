import { MongoClient, MongoServerError, type Db, type Document } from 'mongodb';
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
// at-most-once rules (ledger event ids, key hashes).

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
  ) {}

  async insertOne(doc: T): Promise<void> {
    this.onWrite(this.collection.collectionName, 'insert_one');
    try {
      await this.collection.insertOne({ ...doc } as Document);
    } catch (error) {
      throw translate(error);
    }
  }

  async findOne(filter: Filter): Promise<T | null> {
    return (await this.collection.findOne(filter as Document)) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.collection.find(filter as Document);
    if (options.sort) cursor = cursor.sort(options.sort as Record<string, 1 | -1>);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as T[];
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<boolean> {
    this.onWrite(this.collection.collectionName, 'update_one');
    return this.#retryUpsert(options, async () => {
      const result = await this.collection.updateOne(filter as Document, update as Document, { upsert: options.upsert ?? false });
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
      });
      return doc as T | null;
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.onWrite(this.collection.collectionName, 'delete_many');
    return (await this.collection.deleteMany(filter as Document)).deletedCount;
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.collection.countDocuments(filter as Document);
  }

  // Two concurrent upserts of the same new document can both try the insert; MongoDB answers
  // the loser with a duplicate key, and retrying turns it into the update it should have been.
  async #retryUpsert<R>(options: UpdateOptions, run: () => Promise<R>): Promise<R> {
    try {
      return await run();
    } catch (error) {
      if (options.upsert && isDuplicateKeyError(error))
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

  private constructor(client: MongoClient, db: Db, onWrite: StoreWriteObserver) {
    this.#client = client;
    this.#db = db;
    this.#onWrite = onWrite;
  }

  /** Connects to `uri`; the database is the URI's path, else `dbName`, else "gateway". */
  static async connect(uri: string, options: MongoStoreOptions = {}): Promise<MongoStore> {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000, appName: 'ai-gateway' });
    await client.connect();
    const fromUri = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^/?]+)/.exec(uri)?.[1];
    const db = client.db(fromUri ? decodeURIComponent(fromUri) : (options.dbName ?? 'gateway'));
    return new MongoStore(client, db, options.onWrite ?? (() => {}));
  }

  async collection<T extends Doc>(name: string, indexes: readonly IndexSpec[] = []): Promise<Collection<T>> {
    const collection = this.#db.collection<Document>(name);
    for (const index of indexes) {
      await collection.createIndex(Object.fromEntries(indexFields(index).map((field) => [field, 1])), {
        unique: index.unique ?? false,
        ...('field' in index && index.expireAfterSeconds !== undefined ? { expireAfterSeconds: index.expireAfterSeconds } : {}),
      });
    }
    return new MongoCollection<T>(collection, this.#onWrite);
  }

  async atomically<R>(work: () => Promise<R>): Promise<R> {
    return work();
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
