import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { endianness, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckpointWorkerData } from '../src/checkpoint-worker.js';
import { openSqlite, sqliteDriverAvailable } from '../src/sqlite-driver.js';

// The checkpoint thread's module as the store starts it: compiled by tsc into dist/, run in a
// worker thread on each binding this Node has, against a database whose writer never checkpoints.

const compiled = new URL('../dist/checkpoint-worker.js', import.meta.url);
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** Frames in the WAL and frames copied back, read from the WAL index's header. */
async function walIndex(file: string): Promise<{ frames: number; copied: number }> {
  const header = await readFile(`${file}-shm`);
  const read = (at: number) => (endianness() === 'LE' ? header.readUInt32LE(at) : header.readUInt32BE(at));
  return { frames: read(16), copied: read(96) };
}

describe('checkpoint worker', () => {
  it('is compiled into dist/ beside the store', () => {
    expect(existsSync(fileURLToPath(compiled))).toBe(true);
  });

  for (const driver of ['node:sqlite', 'libsql'] as const) {
    it.skipIf(!sqliteDriverAvailable(driver))(`copies the WAL back once enough of it waits, and exits when told (${driver})`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'gateway-checkpoint-'));
      dirs.push(dir);
      const file = join(dir, 'gateway.db');
      const db = openSqlite(driver, file);
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA wal_autocheckpoint = 0');
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT)');
      const insert = db.prepare('INSERT INTO t (pad) VALUES (?)');
      const workerData: CheckpointWorkerData = {
        driver,
        file,
        intervalMs: 20,
        checkpointFrames: 64,
        idleFoldMs: 60_000,
        hardLimit: 16_384,
      };
      const worker = new Worker(compiled, { workerData });
      try {
        // Under the threshold: rounds pass and nothing is copied back.
        for (let i = 0; i < 10; i += 1) insert.run('x'.repeat(3000));
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await walIndex(file)).copied).toBe(0);
        // Past it: copied back within a round or two.
        for (let i = 0; i < 60; i += 1) insert.run('x'.repeat(3000));
        expect((await walIndex(file)).frames).toBeGreaterThanOrEqual(64);
        await expect.poll(async () => (await walIndex(file)).copied, { timeout: 3000, interval: 20 }).toBeGreaterThanOrEqual(64);
      } finally {
        const exited = new Promise<number>((done) => worker.once('exit', done));
        worker.postMessage('close');
        expect(await exited).toBe(0);
        db.close();
      }
    });
  }
});
