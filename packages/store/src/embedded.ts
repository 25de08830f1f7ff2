import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import nedb from '@seald-io/nedb';

// The package is CommonJS whose typings declare `export default`; at run time the default import
// is the class itself.
type Datastore<T> = import('@seald-io/nedb').default<T>;
const Datastore = nedb as unknown as typeof import('@seald-io/nedb').default;
import {
  StoreError, type Collection, type Doc, type DocumentStore, type Filter, type FindOptions,
  type IndexSpec, type Update, type UpdateOptions,
} from './port.js';

// The embedded adapter: one append-only file per collection in the data folder (@seald-io/nedb,
// which speaks the same query language and has TTL indexes). Operations on one collection run
// one at a time, so a conditional findOneAndUpdate is atomic within the process.

const COMPACTION_INTERVAL_MS = 10 * 60 * 1000;

function translate(error: unknown): unknown {
  if (error && typeof error === 'object' && (error as { errorType?: unknown }).errorType === 'uniqueViolated') {
    return new StoreError('duplicate_key', 'duplicate key', { cause: error });
  }
  return error;
}

class EmbeddedCollection<T extends Doc> implements Collection<T> {
  constructor(private readonly db: Datastore<T>) {}

  async insertOne(doc: T): Promise<void> {
    try {
      await this.db.insertAsync(doc);
    } catch (error) {
      throw translate(error);
    }
  }

  async findOne(filter: Filter): Promise<T | null> {
    return (await this.db.findOneAsync(filter).execAsync()) ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.db.findAsync(filter);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.execAsync()) as unknown as T[];
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<boolean> {
    try {
      const result = await this.db.updateAsync(filter, update, { multi: false, upsert: options.upsert ?? false });
      return result.numAffected > 0;
    } catch (error) {
      throw translate(error);
    }
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    try {
      const result = await this.db.updateAsync(filter, update, {
        multi: false, upsert: options.upsert ?? false, returnUpdatedDocs: true,
      });
      return result.affectedDocuments ?? null;
    } catch (error) {
      throw translate(error);
    }
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.db.removeAsync(filter, { multi: true });
  }

  async countDocuments(filter: Filter): Promise<number> {
    return (await this.db.countAsync(filter).execAsync()) as unknown as number;
  }
}

export class EmbeddedStore implements DocumentStore {
  readonly kind = 'embedded';
  readonly #dir: string;
  readonly #collections = new Map<string, Promise<Datastore<Doc>>>();
  #closed = false;

  /** `dir` holds one `<collection>.db` file per collection; it is created when missing. */
  constructor(dir: string) {
    this.#dir = dir;
  }

  async collection<T extends Doc>(name: string, indexes: readonly IndexSpec[] = []): Promise<Collection<T>> {
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`invalid collection name "${name}"`);
    let opening = this.#collections.get(name);
    if (!opening) {
      opening = this.#open(name);
      this.#collections.set(name, opening);
    }
    const db = await opening;
    for (const index of indexes) {
      await db.ensureIndexAsync({
        fieldName: index.field,
        unique: index.unique ?? false,
        ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
      });
    }
    return new EmbeddedCollection(db as unknown as Datastore<T>);
  }

  async #open(name: string): Promise<Datastore<Doc>> {
    await mkdir(this.#dir, { recursive: true });
    const db = new Datastore<Doc>({ filename: join(this.#dir, `${name}.db`) });
    await db.loadDatabaseAsync();
    db.setAutocompactionInterval(COMPACTION_INTERVAL_MS);
    return db;
  }

  async ping(): Promise<void> {
    if (this.#closed) throw new StoreError('unavailable', 'embedded store is closed');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const opening of this.#collections.values()) {
      const db = await opening.catch(() => undefined);
      if (!db) continue;
      db.stopAutocompaction();
      // Rewrites the file without superseded lines, so the next start loads quickly.
      await db.compactDatafileAsync().catch(() => undefined);
    }
    this.#collections.clear();
  }
}
