import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSqliteDriver, sqliteDriverAvailable } from '@gateway/store';
import { createLogger } from '@gateway/logging';
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore, sqliteDriverOf } from '../src/index.js';

// SQLITE_DRIVER picks the embedded store's binding; unset, the built-in one from Node 24 on.

describe('SQLITE_DRIVER', () => {
  it('defaults to node:sqlite from Node 24 on, else libsql', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(sqliteDriverOf({})).toBe(major >= 24 ? 'node:sqlite' : 'libsql');
    expect(sqliteDriverOf({ SQLITE_DRIVER: '' })).toBe(defaultSqliteDriver());
  });

  it('takes node or libsql, and refuses anything else with the variable named', () => {
    expect(sqliteDriverOf({ SQLITE_DRIVER: 'libsql' })).toBe('libsql');
    expect(sqliteDriverOf({ SQLITE_DRIVER: 'LibSQL' })).toBe('libsql');
    expect(() => sqliteDriverOf({ SQLITE_DRIVER: 'postgres' })).toThrow(/SQLITE_DRIVER must be "node" or "libsql"/);
    if (sqliteDriverAvailable('node:sqlite')) expect(sqliteDriverOf({ SQLITE_DRIVER: 'node' })).toBe('node:sqlite');
    else expect(() => sqliteDriverOf({ SQLITE_DRIVER: 'node' })).toThrow(/lacks/);
  });

  it('opens the data folder with the driver named, and the other reads what it wrote', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-driver-'));
    const logger = createLogger({ level: 'silent' });
    try {
      const first = await openEmbeddedStore({ GATEWAY_DATA_DIR: dir, SQLITE_DRIVER: 'libsql' }, logger);
      expect(first.driver).toBe('libsql');
      await (await first.collection<{ _id: string; n: number }>('items', [{ field: 'n' }])).insertOne({ _id: 'a', n: 1 });
      await first.close();
      const second = await openEmbeddedStore({ GATEWAY_DATA_DIR: dir }, logger);
      expect(second.driver).toBe(defaultSqliteDriver());
      expect(await (await second.collection<{ _id: string; n: number }>('items', [{ field: 'n' }])).findOne({ n: 1 })).toEqual({
        _id: 'a',
        n: 1,
      });
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
