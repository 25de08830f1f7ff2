import { openSqlite, type SqlConnection, type SqliteDriverName } from './sqlite-driver.js';

// Opening the database file and its pragmas. Durability: `synchronous=NORMAL` in WAL mode. A
// commit is in the WAL (the operating system's file cache) before the call that made it
// returns, so a crash of this process (kill -9) loses nothing that was committed; only a power
// or kernel failure can take the last commits with it, since the WAL is synced every 200 ms by
// the checkpoint thread (sqlite-checkpointer.ts) rather than at every commit.
// SQLITE_SYNCHRONOUS=full syncs every commit, for machines whose power cannot be trusted, at a
// cost per write.

export type Synchronous = 'normal' | 'full';
export type Checkpoints = 'background' | 'inline';

/** The WAL is cut back to this size after a checkpoint, so it does not keep its largest size. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** Opens `file` in WAL mode; with background checkpoints, SQLite's own inside commits are turned off. */
export function openWalDatabase(file: string, driver: SqliteDriverName, synchronous: Synchronous, checkpoints: Checkpoints): SqlConnection {
  const db = openSqlite(driver, file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  if (checkpoints === 'background') db.exec('PRAGMA wal_autocheckpoint = 0');
  return db;
}
