import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type Collection,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type IndexSpec,
  StoreError,
  type StoreWriteObserver,
} from './port.js';
import { SqliteCollection } from './sqlite-collection.js';
import { SqliteDatabase } from './sqlite-database.js';
import { defaultSqliteDriver, type SqliteDriverName } from './sqlite-driver.js';
import type { Checkpoints, Synchronous } from './sqlite-open.js';

// The embedded adapter: one SQLite database per data folder (`gateway.db`, WAL mode), driven by
// a synchronous binding (`node:sqlite`, or `libsql` before Node 24: sqlite-driver.ts). Each
// collection is a table of JSON documents keyed by `_id` (sqlite-collection.ts); every declared
// index is a SQLite expression index on the field, unique ones enforced by SQLite. Nothing is
// held in the heap: memory stays flat however large the data grows.
//
// The concerns each have their file: opening and pragmas (sqlite-open.ts, which says what a
// crash can lose), the database shared by handles (sqlite-database.ts), transactions and
// savepoints (sqlite-transactions.ts), filters to SQL (sqlite-filter.ts), updates
// (sqlite-update.ts), the date codec (sqlite-codec.ts), and checkpoints in a thread of their
// own (sqlite-checkpointer.ts, checkpoint-worker.ts).

export const SQLITE_FILE = 'gateway.db';

/** The databases open in this process, by file: handles on one folder share its connection. */
const open = new Map<string, SqliteDatabase>();

export interface SqliteStoreOptions {
  /** `normal` (default) survives a crash of the process; `full` also a loss of power. */
  synchronous?: Synchronous;
  /** `background` (default): checkpoints in a worker thread; `inline`: SQLite's own, inside commits. */
  checkpoints?: Checkpoints;
  /** Told of each write operation this handle's collections issue (the process's write counter). */
  onWrite?: StoreWriteObserver;
  /**
   * The binding: `node:sqlite` (default where this Node has it) or `libsql`. Handles on a
   * folder already open in this process share its connection, whatever they name.
   */
  driver?: SqliteDriverName;
}

/**
 * A handle on the data folder's `gateway.db`. Handles on the same folder within one process
 * share one connection (the store and the bus's outbox live in the same file); the file closes
 * with its last handle.
 */
export class SqliteStore implements DocumentStore {
  readonly kind = 'embedded';
  readonly transactional = true;
  readonly file: string;
  readonly #base: SqliteDatabase;
  readonly #onWrite: StoreWriteObserver | undefined;
  #closed = false;

  constructor(dir: string, options: SqliteStoreOptions = {}) {
    this.#onWrite = options.onWrite;
    mkdirSync(dir, { recursive: true });
    this.file = resolve(join(dir, SQLITE_FILE));
    let base = open.get(this.file);
    if (!base) {
      base = new SqliteDatabase(
        this.file,
        options.driver ?? defaultSqliteDriver(),
        options.synchronous ?? 'normal',
        options.checkpoints ?? 'background',
      );
      open.set(this.file, base);
    }
    base.refs += 1;
    this.#base = base;
  }

  async collection<T extends Doc>(name: string, indexes: readonly IndexSpec[] = []): Promise<Collection<T>> {
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`invalid collection name "${name}"`);
    this.#assertOpen();
    return new SqliteCollection<T>(this.#base, name, this.#base.ensureTable(name, indexes), this.#onWrite);
  }

  /**
   * Runs `work` as one transaction: its writes land together or not at all. The binding is
   * synchronous, so work that awaits only this store's calls runs to its end before any other
   * JavaScript can; work must not await anything else (a timer, the network) while it runs.
   */
  async atomically<R>(work: () => Promise<R>): Promise<R> {
    this.#assertOpen();
    // Inside a transaction already (a bus handling events in one): a savepoint, so this work
    // still lands whole or not at all within it.
    return this.#base.transactions.atomically(work);
  }

  /** A SQLite transaction never conflicts (one writer, and the binding runs it to its end): `work` runs once. */
  async transaction<R>(work: () => Promise<R>): Promise<R> {
    return this.atomically(work);
  }

  /** SQLite's plan for a find on a collection opened before (see SqliteCollection.explain). */
  explain(collection: string, filter: Filter, options: FindOptions = {}): string {
    this.#assertOpen();
    return new SqliteCollection(this.#base, collection, this.#base.ensureTable(collection, [])).explain(filter, options);
  }

  /** The binding this store's connection runs on. */
  get driver(): SqliteDriverName {
    return this.#base.driver;
  }

  /** Whether checkpoints run in their thread yet (it starts once the WAL passes 1 MiB). */
  get checkpointing(): boolean {
    return this.#base.checkpointing;
  }

  /** Removes expired documents now (the store also does it every 30 s); returns how many. */
  async sweepExpired(now = Date.now()): Promise<number> {
    return this.#base.sweep(now);
  }

  async ping(): Promise<void> {
    this.#assertOpen();
    this.#base.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#base.refs -= 1;
    if (this.#base.refs > 0) return;
    open.delete(this.file);
    await this.#base.close();
  }

  #assertOpen(): void {
    if (this.#closed || this.#base.closed) throw new StoreError('unavailable', 'the embedded store is closed');
  }
}
