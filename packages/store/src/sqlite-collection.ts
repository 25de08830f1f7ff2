import {
  type Collection,
  type Doc,
  type Filter,
  type FindOptions,
  StoreError,
  type StoreWriteObserver,
  type StoreWriteOp,
  type Update,
  type UpdateOptions,
} from './port.js';
import { decodeDocument, type DocumentRow, encodeDocument } from './sqlite-codec.js';
import type { SqliteDatabase, TableInfo, Ttl } from './sqlite-database.js';
import { isSqliteDuplicate, type SqlValue } from './sqlite-driver.js';
import { fieldExpr, PLAIN_SEGMENT, QueryWriter, where } from './sqlite-filter.js';
import { applyUpdate, seed } from './sqlite-update.js';

// A collection of the embedded store: a table of JSON documents keyed by `_id`. Reads are one
// SELECT; a read-modify-write (updateOne, findOneAndUpdate) reads, updates in JavaScript and
// writes back inside one transaction.

/** A duplicate key from the driver as the port's StoreError; any other error as it is. */
function translate(error: unknown): unknown {
  if (isSqliteDuplicate(error)) {
    return new StoreError('duplicate_key', 'duplicate key', { cause: error });
  }
  return error;
}

const unobserved: StoreWriteObserver = () => {};

export class SqliteCollection<T extends Doc> implements Collection<T> {
  readonly #table: string;
  readonly #ttl: Ttl | undefined;
  readonly #indexed: ReadonlySet<string>;
  readonly #onWrite: StoreWriteObserver;

  constructor(
    private readonly base: SqliteDatabase,
    table: string,
    { ttl, indexed }: TableInfo,
    onWrite: StoreWriteObserver = unobserved,
  ) {
    this.#table = table;
    this.#ttl = ttl;
    this.#indexed = indexed;
    this.#onWrite = onWrite;
  }

  #counted(op: StoreWriteOp): void {
    this.#onWrite(this.#table, op);
  }

  /** The filter, and (on a TTL collection) that the document has not expired: reads never see expired rows. */
  #where(filter: Filter, params: SqlValue[], now = Date.now()): string {
    const condition = where(new QueryWriter(this.#indexed, params), filter);
    if (!this.#ttl) return condition;
    params.push(now - this.#ttl.seconds * 1000);
    return `${condition} AND (${this.#ttl.expr} IS NULL OR ${this.#ttl.expr} > ?)`;
  }

  #select(filter: Filter, options: FindOptions, columns = 'doc, dates'): { sql: string; params: SqlValue[] } {
    const params: SqlValue[] = [];
    let sql = `SELECT ${columns} FROM "${this.#table}" WHERE ${this.#where(filter, params)}`;
    const sort = Object.entries(options.sort ?? {});
    // Sorted fields are written literally: an ORDER BY is not parameterised, and sorts are on indexed fields.
    if (sort.length > 0) sql += ` ORDER BY ${sort.map(([field, dir]) => `${fieldExpr(field)} ${dir === -1 ? 'DESC' : 'ASC'}`).join(', ')}`;
    if (options.limit !== undefined) {
      sql += ' LIMIT ?';
      params.push(options.limit);
    }
    return { sql, params };
  }

  /** SQLite's plan for a find, one line per step: how tests and operators check a query uses its index. */
  explain(filter: Filter, options: FindOptions = {}): string {
    const { sql, params } = this.#select(filter, options);
    const rows = this.base.statement(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return rows.map((row) => row.detail).join('\n');
  }

  #insert(doc: object & { _id: string }): void {
    const { json, dates } = encodeDocument(doc);
    this.base.statement(`INSERT INTO "${this.#table}" (id, doc, dates) VALUES (?, ?, ?)`).run(doc._id, json, dates);
  }

  #replace(doc: Record<string, unknown> & { _id: string }): void {
    const { json, dates } = encodeDocument(doc);
    this.base.statement(`UPDATE "${this.#table}" SET doc = ?, dates = ? WHERE id = ?`).run(json, dates, doc._id);
  }

  async insertOne(doc: T): Promise<void> {
    this.#counted('insert_one');
    try {
      this.#insert(doc);
    } catch (error) {
      throw translate(error);
    }
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    if (docs.length === 0) return;
    this.#counted('insert_many');
    try {
      // One statement per row, prepared once; in one transaction (or savepoint), so one commit.
      this.base.transactions.allOrNothing(() => {
        for (const doc of docs) this.#insert(doc);
      });
    } catch (error) {
      throw translate(error);
    }
  }

  async findOne(filter: Filter): Promise<T | null> {
    const { sql, params } = this.#select(filter, { limit: 1 });
    const row = this.base.statement(sql).get(...params) as DocumentRow | undefined;
    return row ? decodeDocument<T>(row) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const { sql, params } = this.#select(filter, options);
    return (this.base.statement(sql).all(...params) as DocumentRow[]).map((row) => decodeDocument<T>(row));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<boolean> {
    this.#counted('update_one');
    try {
      if (this.#counterUpsert(filter, update, options)) return true;
    } catch (error) {
      throw translate(error);
    }
    return this.#findOneAndUpdate(filter, update, options) !== null;
  }

  /**
   * The counter upsert (`{_id, plain fields}` with only `$inc` of top-level numbers), as one
   * INSERT … ON CONFLICT DO UPDATE that adds inside SQLite: no read, parse and rewrite of the
   * document in JavaScript. False (having done nothing) for any other shape, and when the row
   * exists but its fields differ from the filter's, so the general path answers as MongoDB does.
   */
  #counterUpsert(filter: Filter, update: Update, options: UpdateOptions): boolean {
    if (!options.upsert || update.$set || update.$unset || !update.$inc || this.#ttl || typeof filter._id !== 'string') return false;
    const incs = Object.entries(update.$inc);
    if (incs.length === 0 || incs.some(([field, by]) => !PLAIN_SEGMENT.test(field) || !Number.isSafeInteger(by))) return false;
    const fields = Object.entries(filter).filter(([field]) => field !== '_id');
    for (const [field, value] of fields) {
      if (!PLAIN_SEGMENT.test(field) || !(value === null || typeof value === 'string' || Number.isSafeInteger(value))) return false;
      if (Object.hasOwn(update.$inc, field)) return false;
    }
    const doc = seed(filter);
    applyUpdate(doc, update);
    const { json, dates } = encodeDocument(doc);
    const params: SqlValue[] = [filter._id, json, dates];
    const sets = incs.map(([field, by]) => {
      params.push(by);
      return `'$.${field}', coalesce(json_extract(doc, '$.${field}'), 0) + ?`;
    });
    const matches = fields.map(([field, value]) => {
      if (value === null) return `json_extract(doc, '$.${field}') IS NULL`;
      params.push(value as SqlValue);
      return `json_extract(doc, '$.${field}') = ?`;
    });
    const sql =
      `INSERT INTO "${this.#table}" (id, doc, dates) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET doc = json_set(doc, ${sets.join(', ')})` +
      (matches.length > 0 ? ` WHERE ${matches.join(' AND ')}` : '');
    return this.base.statement(sql).run(...params).changes > 0;
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    this.#counted('find_one_and_update');
    return this.#findOneAndUpdate(filter, update, options);
  }

  #findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions): T | null {
    try {
      return this.base.transactions.write(() => {
        const { sql, params } = this.#select(filter, { limit: 1 });
        const row = this.base.statement(sql).get(...params) as DocumentRow | undefined;
        if (row) {
          const doc = decodeDocument<Record<string, unknown> & { _id: string }>(row);
          applyUpdate(doc, update);
          this.#replace(doc);
          return doc as unknown as T;
        }
        if (!options.upsert) return null;
        const doc = seed(filter);
        applyUpdate(doc, update);
        if (typeof doc._id !== 'string') throw new StoreError('invalid_query', 'an upsert needs the _id in its filter');
        // An expired document the sweeper has not removed yet is absent to every read: the upsert replaces it.
        if (this.#ttl) {
          this.base
            .statement(`DELETE FROM "${this.#table}" WHERE id = ? AND ${this.#ttl.expr} <= ?`)
            .run(doc._id, Date.now() - this.#ttl.seconds * 1000);
        }
        this.#insert(doc as Record<string, unknown> & { _id: string });
        return doc as unknown as T;
      });
    } catch (error) {
      throw translate(error);
    }
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.#counted('delete_many');
    const params: SqlValue[] = [];
    const sql = `DELETE FROM "${this.#table}" WHERE ${where(new QueryWriter(this.#indexed, params), filter)}`;
    return this.base.statement(sql).run(...params).changes;
  }

  async countDocuments(filter: Filter): Promise<number> {
    const { sql, params } = this.#select(filter, {}, 'count(*) AS n');
    return (this.base.statement(sql).get(...params) as { n: number }).n;
  }
}
