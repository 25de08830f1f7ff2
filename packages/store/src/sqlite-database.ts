import { setImmediate as nextTurn } from 'node:timers/promises';
import { type IndexSpec, indexFields, StoreError } from './port.js';
import { BackgroundCheckpointer } from './sqlite-checkpointer.js';
import type { SqlConnection, SqliteDriverName, SqlStatement } from './sqlite-driver.js';
import { fieldExpr } from './sqlite-filter.js';
import { type Checkpoints, openWalDatabase, type Synchronous } from './sqlite-open.js';
import { SqliteTransactions } from './sqlite-transactions.js';

// One open database file: its connection, the prepared statements, the collection tables and
// their indexes, the sweep of expired documents, and the checkpoint thread.

const TTL_SWEEP_INTERVAL_MS = 30_000;
const TTL_SWEEP_BATCH = 500;
const MAX_STATEMENTS = 1000;

/** A collection whose documents expire: `expr` reads the date field, `seconds` after which they do. */
export interface Ttl {
  table: string;
  expr: string;
  seconds: number;
}

/** A collection table as its queries need it: its TTL and its indexed fields (live). */
export interface TableInfo {
  ttl: Ttl | undefined;
  indexed: ReadonlySet<string>;
}

/** One open database file, shared by every handle this process has on it. */
export class SqliteDatabase {
  readonly db: SqlConnection;
  readonly transactions: SqliteTransactions;
  readonly #statements = new Map<string, SqlStatement>();
  readonly #ttls = new Map<string, Ttl>();
  readonly #indexed = new Map<string, Set<string>>();
  readonly #sweeper: NodeJS.Timeout;
  readonly #checkpointer: BackgroundCheckpointer | undefined;
  #sweeping = false;
  refs = 0;
  closed = false;

  constructor(
    readonly file: string,
    readonly driver: SqliteDriverName,
    synchronous: Synchronous,
    checkpoints: Checkpoints,
  ) {
    this.db = openWalDatabase(file, driver, synchronous, checkpoints);
    if (checkpoints === 'background') this.#checkpointer = new BackgroundCheckpointer(file, driver);
    this.transactions = new SqliteTransactions(this.db, (sql) => this.statement(sql));
    this.#sweeper = setInterval(() => void this.sweep(), TTL_SWEEP_INTERVAL_MS);
    this.#sweeper.unref();
  }

  /** Whether the background checkpointer runs (for tests). */
  get checkpointing(): boolean {
    return this.#checkpointer?.running ?? false;
  }

  /** A prepared statement per SQL text; queries bind their values, so the texts are few. */
  statement(sql: string): SqlStatement {
    if (this.closed) throw new StoreError('unavailable', 'the embedded store is closed');
    let statement = this.#statements.get(sql);
    if (!statement) {
      // A bound on the cache all the same, should a caller build texts without end.
      if (this.#statements.size >= MAX_STATEMENTS) this.#statements.clear();
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Creates the table and its indexes when missing; returns its TTL and its indexed fields (live). */
  ensureTable(table: string, indexes: readonly IndexSpec[]): TableInfo {
    this.db.exec(`CREATE TABLE IF NOT EXISTS "${table}" (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL, dates TEXT) WITHOUT ROWID`);
    let ttl = this.#ttls.get(table);
    let indexed = this.#indexed.get(table);
    if (!indexed) {
      indexed = new Set();
      this.#indexed.set(table, indexed);
    }
    for (const index of indexes) {
      const fields = indexFields(index);
      if (fields.length === 1 && fields[0] === '_id') continue;
      for (const field of fields) indexed.add(field);
      // The expressions are exactly those queries write for these fields, so the planner uses the index.
      const name = `${table}__${fields.map((f) => f.replace(/[^A-Za-z0-9_]/g, '_')).join('__')}`;
      const exprs = fields.map(fieldExpr);
      this.db.exec(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${name}" ON "${table}" (${exprs.join(', ')})`);
      if ('field' in index && index.expireAfterSeconds !== undefined) {
        ttl = { table, expr: fieldExpr(index.field), seconds: index.expireAfterSeconds };
        this.#ttls.set(table, ttl);
      }
    }
    return { ttl, indexed };
  }

  /** Deletes expired documents in small batches, yielding between them so no call waits long. */
  async sweep(now = Date.now()): Promise<number> {
    if (this.#sweeping || this.closed) return 0;
    this.#sweeping = true;
    let removed = 0;
    try {
      for (const ttl of this.#ttls.values()) {
        const statement = this.statement(
          `DELETE FROM "${ttl.table}" WHERE id IN (SELECT id FROM "${ttl.table}" WHERE ${ttl.expr} <= ? LIMIT ${TTL_SWEEP_BATCH})`,
        );
        for (;;) {
          if (this.closed) return removed;
          const { changes } = statement.run(now - ttl.seconds * 1000);
          removed += changes;
          if (changes < TTL_SWEEP_BATCH) break;
          await nextTurn();
        }
      }
    } finally {
      this.#sweeping = false;
    }
    return removed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.#sweeper);
    await this.#checkpointer?.close();
    // Folds the WAL into the database file, so the next start reads one file.
    try {
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // A checkpoint that cannot run now runs at the next open.
    }
    this.db.close();
  }
}
