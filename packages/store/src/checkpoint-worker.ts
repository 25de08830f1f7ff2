import { closeSync, fsyncSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { isMainThread, type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { openSqlite, type SqlConnection, type SqliteDriverName } from './sqlite-driver.js';

// The checkpoint thread's module (started by sqlite-checkpointer.ts, which says why it exists):
// every round it reads how much of the WAL waits to be copied back from the WAL index (the
// -shm file), and either checkpoints, or only syncs the WAL when a transaction wrote since.

export interface CheckpointWorkerData {
  driver: SqliteDriverName;
  /** The database file; its WAL and WAL index are this path with `-wal` and `-shm`. */
  file: string;
  intervalMs: number;
  /** WAL frames waiting past which a round checkpoints. */
  checkpointFrames: number;
  /** A smaller WAL is checkpointed once no transaction has written for this long. */
  idleFoldMs: number;
  /** WAL pages past which a PASSIVE checkpoint is followed by a RESTART one. */
  hardLimit: number;
}

// The WAL-index header, as SQLite documents it (https://www.sqlite.org/walformat.html, "The
// WAL-Index Header"): the first copy of the WalIndexHdr at byte 0, the WalCkptInfo from byte
// 96, every integer in the machine's native byte order.
/** iChange: a counter incremented by every write transaction. */
const WAL_INDEX_CHANGE_COUNTER_OFFSET = 8;
/** mxFrame: the index of the last valid commit frame in the WAL (frames in the WAL). */
const WAL_INDEX_MAX_FRAME_OFFSET = 16;
/** nBackfill (WalCkptInfo): the WAL frames already copied back into the database. */
const WAL_INDEX_BACKFILL_OFFSET = 96;
/** The header bytes read: through nBackfill. */
const WAL_INDEX_HEADER_READ_BYTES = WAL_INDEX_BACKFILL_OFFSET + 4;

interface WalIndexState {
  /** The write-transaction counter: changed since the last round means something was written. */
  writes: number;
  /** WAL frames not yet copied back into the database file. */
  waiting: number;
}

/** Read-only descriptors on the -shm and -wal files, opened on first use (they may not exist yet). */
class WalFiles {
  readonly #header = Buffer.alloc(WAL_INDEX_HEADER_READ_BYTES);
  readonly #littleEndian = endianness() === 'LE';
  readonly #opened = new Map<string, number>();

  constructor(private readonly file: string) {}

  #descriptor(suffix: '-shm' | '-wal'): number | undefined {
    let descriptor = this.#opened.get(suffix);
    if (descriptor === undefined) {
      try {
        descriptor = openSync(this.file + suffix, 'r');
      } catch {
        return undefined;
      }
      this.#opened.set(suffix, descriptor);
    }
    return descriptor;
  }

  /** The WAL index's figures; undefined when it cannot be read (then every round checkpoints). */
  walIndex(): WalIndexState | undefined {
    const shm = this.#descriptor('-shm');
    if (shm === undefined || readSync(shm, this.#header, 0, WAL_INDEX_HEADER_READ_BYTES, 0) < WAL_INDEX_HEADER_READ_BYTES) return undefined;
    const read = (at: number) => (this.#littleEndian ? this.#header.readUInt32LE(at) : this.#header.readUInt32BE(at));
    return {
      writes: read(WAL_INDEX_CHANGE_COUNTER_OFFSET),
      waiting: read(WAL_INDEX_MAX_FRAME_OFFSET) - read(WAL_INDEX_BACKFILL_OFFSET),
    };
  }

  syncWal(): void {
    const wal = this.#descriptor('-wal');
    if (wal !== undefined) fsyncSync(wal);
  }

  close(): void {
    for (const descriptor of this.#opened.values()) closeSync(descriptor);
  }
}

/** Runs the checkpoint rounds until the port is told to close. */
export function runCheckpointer(data: CheckpointWorkerData, port: MessagePort): void {
  const db: SqlConnection = openSqlite(data.driver, data.file);
  db.exec('PRAGMA busy_timeout = 5000');
  const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
  const files = new WalFiles(data.file);
  let synced: number | undefined;
  let lastWrites: number | undefined;
  let lastWriteAt = Date.now();
  const round = () => {
    const index = files.walIndex();
    const now = Date.now();
    if (index && index.writes !== lastWrites) {
      lastWrites = index.writes;
      lastWriteAt = now;
    }
    const idle = index !== undefined && index.waiting > 0 && now - lastWriteAt >= data.idleFoldMs;
    if (!index || index.waiting >= data.checkpointFrames || idle) {
      // `log`: the WAL's size in frames (pages) after the checkpoint.
      const result = passive.get() as { log: number } | undefined;
      if (result && result.log > data.hardLimit) restart.get();
      synced = index?.writes;
    } else if (index.writes !== synced) {
      files.syncWal();
      synced = index.writes;
    }
  };
  const timer = setInterval(() => {
    try {
      round();
    } catch {
      // Busy or closing: the next round tries again.
    }
  }, data.intervalMs);
  port.on('message', () => {
    clearInterval(timer);
    files.close();
    db.close();
    process.exit(0);
  });
}

if (!isMainThread && parentPort) runCheckpointer(workerData as CheckpointWorkerData, parentPort);
