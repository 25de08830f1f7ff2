import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
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
  type StoreWriteOp,
  type Update,
  type UpdateOptions,
} from './port.js';
import {
  defaultSqliteDriver,
  isSqliteDuplicate,
  openSqlite,
  type SqlConnection,
  type SqliteDriverName,
  type SqlStatement,
  type SqlValue,
  WORKER_OPEN,
  workerDriver,
} from './sqlite-driver.js';

// The embedded adapter: one SQLite database per data folder (`gateway.db`, WAL mode), driven by
// a synchronous binding (`node:sqlite`, or `libsql` before Node 24: sqlite-driver.ts). Each
// collection is a table of JSON documents keyed by `_id`; every declared index is a SQLite
// expression index on the field, unique ones enforced by SQLite. Nothing is held in the heap:
// memory stays flat however large the data grows.
//
// Durability: `synchronous=NORMAL` in WAL mode. A commit is in the WAL (the operating system's
// file cache) before the call that made it returns, so a crash of this process (kill -9) loses
// nothing that was committed; only a power or kernel failure can take the last commits with it,
// since the WAL is synced every 200 ms by the checkpoint thread (below) rather than at every
// commit. SQLITE_SYNCHRONOUS=full syncs every commit, for machines whose power cannot be
// trusted, at a cost per write.
//
// Atomicity: the binding is synchronous, so one store call runs to its end before any other
// JavaScript runs; a read-modify-write (updateOne, findOneAndUpdate) also runs inside a
// BEGIN IMMEDIATE transaction, which keeps it atomic even if another process opens the file.

export const SQLITE_FILE = 'gateway.db';

const TTL_SWEEP_INTERVAL_MS = 30_000;
const TTL_SWEEP_BATCH = 500;
const MAX_STATEMENTS = 1000;
/** The WAL is cut back to this size after a checkpoint, so it does not keep its largest size. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
const CHECKPOINT_INTERVAL_MS = 200;
/** WAL frames not yet copied back past which the checkpointer copies them (about 4 MiB). */
const CHECKPOINT_FRAMES = 1024;
/** A smaller WAL is folded in once no transaction has written for this long. */
const IDLE_FOLD_MS = 30_000;
/** WAL pages past which the checkpointer also makes writers wait for a full checkpoint (about 64 MiB). */
const WAL_PAGES_HARD_LIMIT = 16_384;
/** WAL bytes past which the checkpointer starts: stores that are barely written never need it. */
const CHECKPOINTER_START_WAL_BYTES = 1024 * 1024;
const CHECKPOINTER_START_CHECK_MS = 1000;

// Checkpoints (copying the WAL back into the database file, with its fsyncs) take milliseconds.
// SQLite runs them inside whichever commit crosses the threshold, which would stall the event
// loop every few thousand writes; they run instead on a connection of their own in a worker
// thread. A PASSIVE checkpoint never blocks the writer; should the WAL still grow past the hard
// limit (writes that never pause), a RESTART checkpoint makes the writer wait once for it.
//
// The thread copies the WAL back only once about 4 MiB of it waits (or after 30 s without a
// write): a WAL copied back whole is restarted by the next commit, which then syncs the WAL's
// new header itself, on the event loop (0.5-1 ms here). Checkpoints every 200 ms made every
// call after a pause of 200 ms pay that sync. In between, every 200 ms the thread syncs the WAL
// when a transaction wrote, so what was committed is on disk as soon as before (a checkpoint
// synced it too). How much waits is read from the WAL index (the -shm file, whose header SQLite
// documents: frames in the WAL at byte 16, frames copied back at byte 96, a counter of write
// transactions at byte 8, in the machine's byte order); unreadable, every round checkpoints.
// The thread (a V8 isolate of its own, ~12 MiB) starts only once the WAL passes 1 MiB: a store
// that is barely written (a service's outbox while NATS acknowledges) never pays for it, and
// its WAL is folded in at close.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const littleEndian = require('node:os').endianness() === 'LE';
${WORKER_OPEN}
db.exec('PRAGMA busy_timeout = 5000');
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
const header = Buffer.alloc(100);
const opened = {};
function fd(suffix) {
  if (opened[suffix] === undefined) {
    try { opened[suffix] = fs.openSync(workerData.file + suffix, 'r'); } catch { return undefined; }
  }
  return opened[suffix];
}
function walIndex() {
  const shm = fd('-shm');
  if (shm === undefined || fs.readSync(shm, header, 0, 100, 0) < 100) return undefined;
  const read = (at) => (littleEndian ? header.readUInt32LE(at) : header.readUInt32BE(at));
  return { writes: read(8), waiting: read(16) - read(96) };
}
let synced;
let lastWrites;
let lastWriteAt = Date.now();
const timer = setInterval(() => {
  try {
    const index = walIndex();
    const now = Date.now();
    if (index && index.writes !== lastWrites) {
      lastWrites = index.writes;
      lastWriteAt = now;
    }
    if (!index || index.waiting >= workerData.checkpointFrames || (index.waiting > 0 && now - lastWriteAt >= workerData.idleFoldMs)) {
      const result = passive.get();
      if (result && result.log > workerData.hardLimit) restart.get();
      synced = index && index.writes;
    } else if (index.writes !== synced) {
      const wal = fd('-wal');
      if (wal !== undefined) fs.fsyncSync(wal);
      synced = index.writes;
    }
  } catch {
    // Busy or closing: the next round tries again.
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  for (const descriptor of Object.values(opened)) fs.closeSync(descriptor);
  db.close();
  process.exit(0);
});
`;

type Row = { doc: string; dates: string | null };
type Synchronous = 'normal' | 'full';
type Checkpoints = 'background' | 'inline';

// --- documents ------------------------------------------------------------------------------
// JSON has no dates: a Date is stored as its milliseconds (so indexes and range filters compare
// numbers), and the paths that held Dates are kept beside the document to revive them.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Appends the path of every Date under `value` to `out`; `path` is a stack, copied only for a Date found. */
function collectDates(value: unknown, path: string[], out: string[][]): void {
  if (typeof value !== 'object' || value === null) return;
  if (value instanceof Date) {
    out.push(path.slice());
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      path.push(String(i));
      collectDates(item, path, out);
      path.pop();
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item !== 'object' || item === null || !Object.hasOwn(record, key)) continue;
    path.push(key);
    collectDates(item, path, out);
    path.pop();
  }
}

/**
 * The document with each Date at `paths` replaced by its milliseconds; only the containers on
 * the way to a Date are copied (a replacer function would slow JSON.stringify for every key).
 */
function datesAsMillis(doc: object, paths: readonly string[][]): object {
  const root: Record<string, unknown> = { ...doc };
  for (const path of paths) {
    let parent = root;
    for (let i = 0; i < path.length - 1; i += 1) {
      const segment = path[i] as string;
      const child = parent[segment] as Record<string, unknown> | unknown[];
      const copied = Array.isArray(child) ? child.slice() : { ...child };
      parent[segment] = copied;
      parent = copied as Record<string, unknown>;
    }
    const last = path[path.length - 1] as string;
    parent[last] = (parent[last] as Date).getTime();
  }
  return root;
}

function encode(doc: object): { json: string; dates: string | null } {
  const dates: string[][] = [];
  collectDates(doc, [], dates);
  if (dates.length === 0) return { json: JSON.stringify(doc), dates: null };
  return { json: JSON.stringify(datesAsMillis(doc, dates)), dates: JSON.stringify(dates) };
}

function decode<T>(row: Row): T {
  const doc = JSON.parse(row.doc) as Record<string, unknown>;
  if (row.dates !== null) {
    for (const path of JSON.parse(row.dates) as string[][]) {
      let parent: Record<string, unknown> = doc;
      for (let i = 0; i < path.length - 1; i += 1) parent = parent[path[i] as string] as Record<string, unknown>;
      const last = path[path.length - 1] as string;
      parent[last] = new Date(parent[last] as number);
    }
  }
  return doc as T;
}

// --- filters --------------------------------------------------------------------------------

const PLAIN_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SAFE_SEGMENT = /^[^"'\\.]+$/;

/** The JSON path of a dotted field; the same text for an index and a query, so SQLite uses the index. */
function jsonPath(field: string): string {
  let path = '$';
  for (const segment of field.split('.')) {
    if (PLAIN_SEGMENT.test(segment)) path += `.${segment}`;
    else if (SAFE_SEGMENT.test(segment)) path += `."${segment}"`;
    else throw new StoreError('invalid_query', `field name "${field}" cannot be stored`);
  }
  return path;
}

/** How a field is read: the id column, or the document's JSON at the field's path. */
function fieldExpr(field: string): string {
  return field === '_id' ? 'id' : `json_extract(doc, '${jsonPath(field)}')`;
}

/**
 * Writes a query's SQL. Indexed fields are written with their path in the SQL text (SQLite uses
 * an expression index only for the very same expression); other paths are bound as parameters,
 * so queries on changing paths (`holds.<id>`) share one prepared statement.
 */
class QueryWriter {
  constructor(
    private readonly indexed: ReadonlySet<string>,
    readonly params: SqlValue[] = [],
  ) {}

  expr(field: string): string {
    if (field === '_id' || this.indexed.has(field)) return fieldExpr(field);
    this.params.push(jsonPath(field));
    return 'json_extract(doc, ?)';
  }

  type(field: string): string {
    this.params.push(jsonPath(field));
    return 'json_type(doc, ?)';
  }
}

function bindable(value: unknown): SqlValue {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new StoreError('invalid_query', `cannot compare with a ${typeof value}`);
}

function isOperators(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function equals(q: QueryWriter, field: string, value: unknown): string {
  const expr = q.expr(field);
  if (value === null || value === undefined) return `${expr} IS NULL`;
  q.params.push(bindable(value));
  return `${expr} = ?`;
}

function list(values: unknown, op: string): unknown[] {
  if (!Array.isArray(values)) throw new StoreError('invalid_query', `${op} takes a list`);
  return values;
}

function operator(q: QueryWriter, field: string, op: string, value: unknown): string {
  const { params } = q;
  switch (op) {
    case '$eq':
      return equals(q, field, value);
    case '$ne': {
      if (value === null || value === undefined) return `${q.expr(field)} IS NOT NULL`;
      const [a, b] = [q.expr(field), q.expr(field)];
      params.push(bindable(value));
      return `(${a} IS NULL OR ${b} <> ?)`;
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (value === null || value === undefined) return '0';
      const expr = q.expr(field);
      params.push(bindable(value));
      const sign = op === '$gt' ? '>' : op === '$gte' ? '>=' : op === '$lt' ? '<' : '<=';
      return `${expr} ${sign} ?`;
    }
    case '$in':
    case '$nin': {
      const values = list(value, op);
      const present = values.filter((v) => v !== null && v !== undefined);
      const withNull = present.length < values.length;
      const marks = present.map(() => '?').join(', ');
      // Each expression is written just before its own parameters, so the order of `?` holds.
      const inList = (not: string) => {
        const expr = q.expr(field);
        for (const v of present) params.push(bindable(v));
        return `${expr} ${not}IN (${marks})`;
      };
      if (op === '$in') {
        const parts = [...(withNull ? [`${q.expr(field)} IS NULL`] : []), ...(present.length > 0 ? [inList('')] : [])];
        return parts.length > 0 ? `(${parts.join(' OR ')})` : '0';
      }
      // A missing field is "not in" the list, as in MongoDB, unless the list holds null.
      if (present.length === 0) return withNull ? `${q.expr(field)} IS NOT NULL` : '1';
      return withNull ? `(${q.expr(field)} IS NOT NULL AND ${inList('NOT ')})` : `(${q.expr(field)} IS NULL OR ${inList('NOT ')})`;
    }
    case '$exists':
      if (field === '_id') return value ? '1' : '0';
      return `${q.type(field)} IS ${value ? 'NOT ' : ''}NULL`;
    default:
      throw new StoreError('invalid_query', `unsupported operator ${op}`);
  }
}

/** A filter as a SQL condition; its values are appended to the writer's parameters in order. */
function where(q: QueryWriter, filter: Filter): string {
  const parts: string[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$or' || field === '$and') {
      const branches = list(condition, field).map((branch) => `(${where(q, branch as Filter)})`);
      if (branches.length === 0) parts.push(field === '$or' ? '0' : '1');
      else parts.push(`(${branches.join(field === '$or' ? ' OR ' : ' AND ')})`);
      continue;
    }
    if (isOperators(condition)) {
      for (const [op, value] of Object.entries(condition)) parts.push(operator(q, field, op, value));
    } else {
      parts.push(equals(q, field, condition));
    }
  }
  return parts.length > 0 ? parts.join(' AND ') : '1';
}

// --- updates --------------------------------------------------------------------------------

function parentOf(doc: Record<string, unknown>, field: string, create: boolean): [Record<string, unknown>, string] | undefined {
  const segments = field.split('.');
  let parent = doc;
  for (let i = 0; i < segments.length - 1; i += 1) {
    const segment = segments[i] as string;
    let next = parent[segment];
    if (!isPlainObject(next)) {
      if (!create) return undefined;
      next = {};
      parent[segment] = next;
    }
    parent = next as Record<string, unknown>;
  }
  return [parent, segments[segments.length - 1] as string];
}

function copy(value: unknown): unknown {
  return typeof value === 'object' && value !== null && !(value instanceof Date) ? structuredClone(value) : value;
}

function applyUpdate(doc: Record<string, unknown>, update: Update): void {
  for (const [field, value] of Object.entries(update.$set ?? {})) {
    if (field === '_id') continue;
    const [parent, key] = parentOf(doc, field, true) as [Record<string, unknown>, string];
    parent[key] = copy(value);
  }
  for (const [field, by] of Object.entries(update.$inc ?? {})) {
    const [parent, key] = parentOf(doc, field, true) as [Record<string, unknown>, string];
    const current = parent[key] ?? 0;
    if (typeof current !== 'number') throw new StoreError('invalid_query', `cannot $inc the non-number field "${field}"`);
    parent[key] = current + by;
  }
  for (const field of Object.keys(update.$unset ?? {})) {
    const found = parentOf(doc, field, false);
    if (found) delete found[0][found[1]];
  }
}

/** The document an upsert starts from: the filter's plain equality fields. */
function seed(filter: Filter): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$')) continue;
    const value = isOperators(condition) ? (Object.hasOwn(condition, '$eq') ? condition.$eq : undefined) : condition;
    if (value === undefined) continue;
    const [parent, key] = parentOf(doc, field, true) as [Record<string, unknown>, string];
    parent[key] = copy(value);
  }
  return doc;
}

// --- errors ---------------------------------------------------------------------------------

function translate(error: unknown): unknown {
  if (isSqliteDuplicate(error)) {
    return new StoreError('duplicate_key', 'duplicate key', { cause: error });
  }
  return error;
}

// --- the database ---------------------------------------------------------------------------

interface Ttl {
  table: string;
  expr: string;
  seconds: number;
}

/** One open database file, shared by every handle this process has on it. */
class SqliteDatabase {
  readonly db: SqlConnection;
  readonly #statements = new Map<string, SqlStatement>();
  readonly #ttls = new Map<string, Ttl>();
  readonly #indexed = new Map<string, Set<string>>();
  readonly #begin: SqlStatement;
  readonly #commit: SqlStatement;
  readonly #rollback: SqlStatement;
  readonly #sweeper: NodeJS.Timeout;
  #checkpointer: Worker | undefined;
  /** Until the checkpointer starts: the WAL's size is looked at once a second. */
  #checkpointerStart: NodeJS.Timeout | undefined;
  #sweeping = false;
  refs = 0;
  closed = false;

  constructor(
    readonly file: string,
    readonly driver: SqliteDriverName,
    synchronous: Synchronous,
    checkpoints: Checkpoints,
  ) {
    this.db = openSqlite(driver, file);
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec(`PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    this.db.exec('PRAGMA busy_timeout = 5000');
    this.db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    if (checkpoints === 'background') {
      this.db.exec('PRAGMA wal_autocheckpoint = 0');
      if (!this.#startCheckpointerOnceWritten()) {
        this.#checkpointerStart = setInterval(() => this.#startCheckpointerOnceWritten(), CHECKPOINTER_START_CHECK_MS);
        this.#checkpointerStart.unref();
      }
    }
    this.#begin = this.db.prepare('BEGIN IMMEDIATE');
    this.#commit = this.db.prepare('COMMIT');
    this.#rollback = this.db.prepare('ROLLBACK');
    this.#sweeper = setInterval(() => void this.sweep(), TTL_SWEEP_INTERVAL_MS);
    this.#sweeper.unref();
  }

  /** Starts the checkpointer once the WAL has grown past its threshold; true once it runs. */
  #startCheckpointerOnceWritten(): boolean {
    if (this.#checkpointer !== undefined) return true;
    if (this.closed) return false;
    let walBytes = 0;
    try {
      walBytes = statSync(`${this.file}-wal`).size;
    } catch {
      // No WAL yet.
    }
    if (walBytes < CHECKPOINTER_START_WAL_BYTES) return false;
    clearInterval(this.#checkpointerStart);
    this.#checkpointerStart = undefined;
    this.#checkpointer = new Worker(CHECKPOINTER, {
      eval: true,
      workerData: {
        driver: workerDriver(this.driver),
        file: this.file,
        intervalMs: CHECKPOINT_INTERVAL_MS,
        checkpointFrames: CHECKPOINT_FRAMES,
        idleFoldMs: IDLE_FOLD_MS,
        hardLimit: WAL_PAGES_HARD_LIMIT,
      },
      // A thread that only copies pages: a small heap.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    this.#checkpointer.unref();
    return true;
  }

  /** Whether the background checkpointer runs (for tests). */
  get checkpointing(): boolean {
    return this.#checkpointer !== undefined;
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

  begin(): void {
    this.#begin.run();
  }

  commit(): void {
    this.#commit.run();
  }

  rollback(): void {
    if (this.db.inTransaction) this.#rollback.run();
  }

  #savepoints = 0;

  /** Opens a savepoint inside the open transaction; `end(ok)` releases it, or first rolls its writes back. */
  #savepoint(): { end(ok: boolean): void } {
    this.#savepoints += 1;
    const name = `nested_${this.#savepoints}`;
    this.statement(`SAVEPOINT ${name}`).run();
    let ended = false;
    return {
      end: (ok) => {
        if (ended) return;
        ended = true;
        this.#savepoints -= 1;
        if (!ok) {
          if (!this.db.inTransaction) return;
          this.statement(`ROLLBACK TO ${name}`).run();
        }
        this.statement(`RELEASE ${name}`).run();
      },
    };
  }

  async savepoint<R>(work: () => Promise<R>): Promise<R> {
    const savepoint = this.#savepoint();
    try {
      const result = await work();
      savepoint.end(true);
      return result;
    } catch (error) {
      savepoint.end(false);
      throw error;
    }
  }

  /** Runs `work` so that its writes land whole or not at all, inside the transaction already open too (a savepoint). */
  allOrNothing<R>(work: () => R): R {
    if (!this.db.inTransaction) return this.write(work);
    const savepoint = this.#savepoint();
    try {
      const result = work();
      savepoint.end(true);
      return result;
    } catch (error) {
      savepoint.end(false);
      throw error;
    }
  }

  /** Runs `work` in a write transaction, or inside the one already open. */
  write<R>(work: () => R): R {
    if (this.db.inTransaction) return work();
    this.begin();
    try {
      const result = work();
      this.commit();
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /** Creates the table and its indexes when missing; returns its TTL and its indexed fields (live). */
  ensureTable(table: string, indexes: readonly IndexSpec[]): { ttl: Ttl | undefined; indexed: ReadonlySet<string> } {
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
    clearInterval(this.#checkpointerStart);
    if (this.#checkpointer) {
      const exited = new Promise((done) => this.#checkpointer?.once('exit', done));
      // Held until it has exited: a process whose last work is this close must wait for it.
      this.#checkpointer.ref();
      this.#checkpointer.postMessage('close');
      await exited;
    }
    // Folds the WAL into the database file, so the next start reads one file.
    try {
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // A checkpoint that cannot run now runs at the next open.
    }
    this.db.close();
  }
}

const open = new Map<string, SqliteDatabase>();

const unobserved: StoreWriteObserver = () => {};

class SqliteCollection<T extends Doc> implements Collection<T> {
  readonly #table: string;
  readonly #ttl: Ttl | undefined;
  readonly #indexed: ReadonlySet<string>;
  readonly #onWrite: StoreWriteObserver;

  constructor(
    private readonly base: SqliteDatabase,
    table: string,
    { ttl, indexed }: { ttl: Ttl | undefined; indexed: ReadonlySet<string> },
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
    const { json, dates } = encode(doc);
    this.base.statement(`INSERT INTO "${this.#table}" (id, doc, dates) VALUES (?, ?, ?)`).run(doc._id, json, dates);
  }

  #replace(doc: Record<string, unknown> & { _id: string }): void {
    const { json, dates } = encode(doc);
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
      this.base.allOrNothing(() => {
        for (const doc of docs) this.#insert(doc);
      });
    } catch (error) {
      throw translate(error);
    }
  }

  async findOne(filter: Filter): Promise<T | null> {
    const { sql, params } = this.#select(filter, { limit: 1 });
    const row = this.base.statement(sql).get(...params) as Row | undefined;
    return row ? decode<T>(row) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const { sql, params } = this.#select(filter, options);
    return (this.base.statement(sql).all(...params) as Row[]).map((row) => decode<T>(row));
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
    const { json, dates } = encode(doc);
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
      return this.base.write(() => {
        const { sql, params } = this.#select(filter, { limit: 1 });
        const row = this.base.statement(sql).get(...params) as Row | undefined;
        if (row) {
          const doc = decode<Record<string, unknown> & { _id: string }>(row);
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
    const base = this.#base;
    // Inside a transaction already (a bus handling events in one): a savepoint, so this work
    // still lands whole or not at all within it.
    if (base.db.inTransaction) return base.savepoint(work);
    base.begin();
    try {
      const result = await work();
      base.commit();
      return result;
    } catch (error) {
      base.rollback();
      throw error;
    }
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
