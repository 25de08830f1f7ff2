import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedStore } from '../src/index.js';
import { storeContract } from './contract.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-store-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

storeContract('embedded', async () => new EmbeddedStore(await tempDir()), { ttlGraceMs: 0 });

describe('embedded store', () => {
  it('keeps data across a restart, one file per collection', async () => {
    const dir = await tempDir();
    const first = new EmbeddedStore(dir);
    const keys = await first.collection<{ _id: string; n: number }>('keys', [{ field: 'n', unique: true }]);
    await keys.insertOne({ _id: 'k1', n: 1 });
    await keys.updateOne({ _id: 'k1' }, { $inc: { n: 41 } });
    await first.close();
    expect(await readdir(dir)).toEqual(['keys.db']);

    const second = new EmbeddedStore(dir);
    const again = await second.collection<{ _id: string; n: number }>('keys', [{ field: 'n', unique: true }]);
    expect(await again.findOne({ _id: 'k1' })).toEqual({ _id: 'k1', n: 42 });
    await second.close();
  });

  it('refuses ping once closed', async () => {
    const store = new EmbeddedStore(await tempDir());
    await store.close();
    await expect(store.ping()).rejects.toMatchObject({ code: 'unavailable' });
  });
});
