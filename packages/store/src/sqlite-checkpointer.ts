import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckpointWorkerData } from './checkpoint-worker.js';
import { StoreError } from './port.js';
import type { SqliteDriverName } from './sqlite-driver.js';

// Checkpoints (copying the WAL back into the database file, with its fsyncs) take milliseconds.
// SQLite runs them inside whichever commit crosses the threshold, which would stall the event
// loop every few thousand writes; they run instead on a connection of their own in a worker
// thread (checkpoint-worker.ts). A PASSIVE checkpoint never blocks the writer; should the WAL
// still grow past the hard limit (writes that never pause), a RESTART checkpoint makes the
// writer wait once for it.
//
// The thread copies the WAL back only once about 4 MiB of it waits (or after 30 s without a
// write): a WAL copied back whole is restarted by the next commit, which then syncs the WAL's
// new header itself, on the event loop (0.5-1 ms here). Checkpoints every 200 ms made every
// call after a pause of 200 ms pay that sync. In between, every 200 ms the thread syncs the WAL
// when a transaction wrote, so what was committed is on disk as soon as before (a checkpoint
// synced it too). The thread (a V8 isolate of its own, ~12 MiB) starts only once the WAL passes
// 1 MiB: a store that is barely written (a service's outbox while NATS acknowledges) never pays
// for it, and its WAL is folded in at close.

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

/**
 * The compiled worker module beside this one. Tests run this package's TypeScript sources,
 * which a worker thread cannot load on Node 20: they start the build's copy in dist/.
 */
function checkpointWorkerUrl(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./checkpoint-worker.js', here);
  const built = new URL('../dist/checkpoint-worker.js', here);
  if (!existsSync(fileURLToPath(built))) {
    throw new StoreError('unavailable', `the checkpoint worker is not built (${fileURLToPath(built)}): run npx tsc -b packages/store`);
  }
  return built;
}

/** The background checkpoint thread of one database file, started once its WAL has grown. */
export class BackgroundCheckpointer {
  #worker: Worker | undefined;
  /** Until the thread starts: the WAL's size is looked at once a second. */
  #startCheck: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly file: string,
    private readonly driver: SqliteDriverName,
  ) {
    if (!this.#startOnceWritten()) {
      this.#startCheck = setInterval(() => this.#startOnceWritten(), CHECKPOINTER_START_CHECK_MS);
      this.#startCheck.unref();
    }
  }

  /** Whether the thread runs (it starts once the WAL passes 1 MiB). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Starts the thread once the WAL has grown past its threshold; true once it runs. */
  #startOnceWritten(): boolean {
    if (this.#worker !== undefined) return true;
    if (this.#closed) return false;
    let walBytes = 0;
    try {
      walBytes = statSync(`${this.file}-wal`).size;
    } catch {
      // No WAL yet.
    }
    if (walBytes < CHECKPOINTER_START_WAL_BYTES) return false;
    clearInterval(this.#startCheck);
    this.#startCheck = undefined;
    const workerData: CheckpointWorkerData = {
      driver: this.driver,
      file: this.file,
      intervalMs: CHECKPOINT_INTERVAL_MS,
      checkpointFrames: CHECKPOINT_FRAMES,
      idleFoldMs: IDLE_FOLD_MS,
      hardLimit: WAL_PAGES_HARD_LIMIT,
    };
    this.#worker = new Worker(checkpointWorkerUrl(), {
      workerData,
      // A thread that only copies pages: a small heap.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    this.#worker.unref();
    return true;
  }

  /** Stops looking at the WAL, and stops the thread, resolving once it has exited. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#startCheck);
    const worker = this.#worker;
    if (!worker) return;
    const exited = new Promise((done) => worker.once('exit', done));
    // Held until it has exited: a process whose last work is this close must wait for it.
    worker.ref();
    worker.postMessage('close');
    await exited;
  }
}
