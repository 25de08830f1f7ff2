import { createRequire } from 'node:module';
import type LibsqlDatabase from 'libsql';

// The SQLite binding the embedded store runs on: Node's built-in `node:sqlite` from Node 24 on
// (the same SQLite without an add-on: about 40% less CPU per store call than `libsql`, and no
// native library to map into every process; bench/history/2026-11-28-results-diary.md, "`node:sqlite` against
// `libsql`"), and
// `libsql` (prebuilt N-API binaries in its registry packages) before, Node 22 included, where
// `node:sqlite` is still experimental. Both are synchronous and speak the same SQL to the same
// file format; `SQLITE_DRIVER` picks one explicitly.

export type SqliteDriverName = 'node:sqlite' | 'libsql';
export type SqlValue = string | number | null;

export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number };
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
}

export interface SqlConnection {
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  /** Whether a transaction is open on this connection. */
  readonly inTransaction: boolean;
  close(): void;
}

interface NodeSqliteDatabase {
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  readonly isTransaction: boolean;
  close(): void;
}
interface NodeSqlite {
  DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => NodeSqliteDatabase;
}

let loaded: NodeSqlite | null | undefined;

/**
 * `node:sqlite` when this Node has it without a flag and with what the store needs of it
 * (`isTransaction`, Node ≥ 22.16); undefined otherwise.
 */
function builtin(): NodeSqlite | undefined {
  if (loaded === undefined) {
    loaded = null;
    const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    const sqlite = get?.call(process, 'node:sqlite') as NodeSqlite | undefined;
    if (typeof sqlite?.DatabaseSync === 'function') {
      const probe = new sqlite.DatabaseSync(':memory:');
      if (typeof probe.isTransaction === 'boolean') loaded = sqlite;
      probe.close();
    }
  }
  return loaded ?? undefined;
}

/**
 * The driver a store uses when none is named: `node:sqlite` from Node 24 on; `libsql` before,
 * including Node 22, where `node:sqlite` is still experimental and prints a warning when loaded
 * (`SQLITE_DRIVER=node` uses it there all the same).
 */
export function defaultSqliteDriver(): SqliteDriverName {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 24 && builtin() ? 'node:sqlite' : 'libsql';
}

/** Whether this runtime can run the named driver. */
export function sqliteDriverAvailable(name: SqliteDriverName): boolean {
  return name === 'libsql' || builtin() !== undefined;
}

/** Opens `file` with the named driver. `libsql` is loaded only when asked for. */
export function openSqlite(name: SqliteDriverName, file: string, options: { readOnly?: boolean } = {}): SqlConnection {
  if (name === 'node:sqlite') {
    const sqlite = builtin();
    if (!sqlite) throw new Error(`node:sqlite needs Node ≥ 22.16 (this is ${process.version}); use the libsql driver`);
    const db = new sqlite.DatabaseSync(file, { readOnly: options.readOnly === true });
    return {
      prepare: (sql) => db.prepare(sql),
      exec: (sql) => db.exec(sql),
      get inTransaction() {
        return db.isTransaction;
      },
      close: () => db.close(),
    };
  }
  const Database = createRequire(import.meta.url)('libsql') as typeof LibsqlDatabase;
  const db = new Database(file, { readonly: options.readOnly === true });
  return {
    prepare: (sql) => db.prepare(sql) as unknown as SqlStatement,
    exec: (sql) => {
      db.exec(sql);
    },
    get inTransaction() {
      return db.inTransaction;
    },
    close: () => db.close(),
  };
}

/** SQLite's extended result codes for a broken primary key or unique index. */
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** Whether a driver's error is a duplicate primary key or unique index entry. */
export function isSqliteDuplicate(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  // libsql names the extended code; node:sqlite gives its number.
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') return true;
  return code === 'ERR_SQLITE_ERROR' && (errcode === SQLITE_CONSTRAINT_PRIMARYKEY || errcode === SQLITE_CONSTRAINT_UNIQUE);
}
