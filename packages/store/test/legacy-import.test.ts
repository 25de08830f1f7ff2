import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore, type Collection, type Doc, type DocumentStore, type IndexSpec } from '../src/index.js';
import { importLegacyEmbedded, LEGACY_ARCHIVE, OUTBOX_COLLECTION } from '../src/legacy-import.js';

// The import of a data folder written by the previous embedded store (nedb files) into the
// current store, through the store port only. The fixtures stay untouched: each test imports a
// copy. The store lives in a folder of its own unless a test says otherwise.

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const UNCOMPACTED = join(FIXTURES, 'legacy-embedded-uncompacted');
const RELEASE = join(FIXTURES, 'legacy-embedded');

interface ReleaseFixture {
  keys: { id: string; name: string; revoked: boolean; by_model: { model: string; requests: number; spent_nano_usd: number }[] }[];
  videos: { id: string; key_id: string; status: string }[];
  /** Documents per legacy file, as the release's nedb counted them. */
  files: Record<string, number>;
}
const release = JSON.parse(await readFile(join(RELEASE, 'fixture.json'), 'utf8')) as ReleaseFixture;
const releaseCounts = Object.fromEntries(Object.entries(release.files).map(([file, n]) => [file.replace(/\.db$/, ''), n]));

type Row = Doc & Record<string, unknown>;

const dirs: string[] = [];
const stores: DocumentStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-legacy-'));
  dirs.push(dir);
  return dir;
}

/** A copy of a fixture's data files (not its fixture.json) in a fresh folder. */
async function copyOf(fixture: string): Promise<string> {
  const dir = await tempDir();
  await cp(fixture, dir, { recursive: true, filter: (source) => !source.endsWith('fixture.json') });
  return dir;
}

async function open(dataDir?: string): Promise<DocumentStore> {
  const store = new SqliteStore(dataDir ?? (await tempDir()));
  stores.push(store);
  return store;
}

async function all(store: DocumentStore, name: string): Promise<Row[]> {
  return (await store.collection<Row>(name)).find({}, { sort: { _id: 1 } });
}

async function counts(store: DocumentStore, names: readonly string[]): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const name of names) result[name] = await (await store.collection(name)).countDocuments({});
  return result;
}

const UNCOMPACTED_COUNTS = { accounting_keys: 3, accounting_ledger: 2, accounting_usage: 0, video_tasks: 2, [OUTBOX_COLLECTION]: 2 };

describe('an uncompacted nedb folder', () => {
  it('keeps the last line of each document, drops deleted ones and revives every $$date', async () => {
    const dir = await copyOf(UNCOMPACTED);
    const store = await open();
    const result = await importLegacyEmbedded(dir, store);
    expect(result).toEqual({ collections: UNCOMPACTED_COUNTS, movedTo: join(dir, LEGACY_ARCHIVE) });

    // key_alpha was written three times; key_beta deleted; key_delta deleted then written again;
    // key_epsilon is a torn last line. The index lines are no documents.
    const keys = await all(store, 'accounting_keys');
    expect(keys.map((k) => k._id)).toEqual(['key_alpha', 'key_delta', 'key_gamma']);
    expect(keys[0]).toMatchObject({
      name: 'alpha',
      spent_nano_usd: 9800,
      created_at: new Date(1700000000000),
      revoked_at: new Date(1700000500000),
    });
    expect(keys[0]?.created_at).toBeInstanceOf(Date);
    expect(keys[1]).toMatchObject({ name: 'delta again', budget_nano_usd: 2000000000, created_at: new Date(1700000400000) });
    expect(keys[2]).toMatchObject({ name: 'gamma', revoked_at: null });
    for (const key of keys) expect(Object.keys(key).some((field) => field.startsWith('$$'))).toBe(false);

    // Dates deep inside arrays and objects, and the epoch itself.
    const tasks = await all(store, 'video_tasks');
    expect(tasks.map((t) => t._id)).toEqual(['video_one', 'video_three']);
    expect(tasks[0]).toEqual({
      _id: 'video_one',
      key_id: 'key_alpha',
      model: 'beta-dance',
      group: 'beta-dance',
      status: 'completed',
      progress: 100,
      seconds: 5,
      created_at: new Date(1700000600000),
      updated_at: new Date(1700000606000),
      completed_at: new Date(1700000606000),
      next_poll_at: null,
      history: [
        { status: 'running', at: new Date(1700000603000) },
        { status: 'completed', at: new Date(1700000606000) },
      ],
      billing: { state: 'billed', at: new Date(1700000606500) },
    });
    const history = tasks[0]?.history as { at: unknown }[];
    expect(history[1]?.at).toBeInstanceOf(Date);
    expect(tasks[1]?.epoch).toEqual(new Date(0));

    // Every line deleted: the collection is there, empty.
    expect(await all(store, 'accounting_usage')).toEqual([]);
    // Only a `.db~` (a rewrite a crash interrupted before its rename): nedb read that.
    expect((await all(store, 'accounting_ledger')).map((l) => [l._id, l.occurred_at])).toEqual([
      ['chatcmpl-one', new Date(1700000450000)],
      ['chatcmpl-two', new Date(1700000460000)],
    ]);
    // The old per-service outboxes, one of them only a `.db~`, into the one outbox collection.
    const outbox = await all(store, OUTBOX_COLLECTION);
    expect(outbox.map((e) => [e._id, e.attempts, e.next_at])).toEqual([
      ['evt_one', 2, new Date(1700000801500)],
      ['evt_three', 3, new Date(1700000610000)],
    ]);
    expect(outbox[0]?.data).toEqual({
      id: 'evt_one',
      kind: 'chat',
      key_id: 'key_alpha',
      group: 'gamma-flash',
      cost_nano_usd: 4900,
      occurred_at: 1700000800000,
    });
  });

  it('moves every legacy file, stale `.db~` and the outbox folder unchanged into imported-legacy-embedded/', async () => {
    const dir = await copyOf(UNCOMPACTED);
    await importLegacyEmbedded(dir, await open());
    expect(await readdir(dir)).toEqual([LEGACY_ARCHIVE]);
    const archive = join(dir, LEGACY_ARCHIVE);
    expect((await readdir(archive)).sort()).toEqual([
      'accounting_keys.db',
      'accounting_ledger.db~',
      'accounting_usage.db',
      'outbox',
      'video_tasks.db',
      'video_tasks.db~',
    ]);
    for (const file of [
      'accounting_keys.db',
      'video_tasks.db~',
      join('outbox', 'accounting', 'outbox.db'),
      join('outbox', 'video', 'outbox.db~'),
    ]) {
      expect(await readFile(join(archive, file), 'utf8'), file).toBe(await readFile(join(UNCOMPACTED, file), 'utf8'));
    }
  });
});

describe('a folder written by the previous release', () => {
  it('brings every document over, as many as the release counted, with Dates as Dates', async () => {
    const dir = await copyOf(RELEASE);
    const store = await open();
    const result = await importLegacyEmbedded(dir, store);
    expect(result?.collections).toEqual(releaseCounts);
    expect(await counts(store, Object.keys(releaseCounts))).toEqual(releaseCounts);

    const keys = await all(store, 'accounting_keys');
    expect(keys.map((k) => k._id).sort()).toEqual(release.keys.map((k) => k.id).sort());
    for (const key of release.keys) {
      const stored = keys.find((k) => k._id === key.id);
      expect(stored?.name).toBe(key.name);
      expect(stored?.created_at).toBeInstanceOf(Date);
      if (key.revoked) expect(stored?.revoked_at).toBeInstanceOf(Date);
      else expect(stored?.revoked_at).toBeNull();
      // The per-group usage the release reported, from the imported usage documents.
      const usage = (await all(store, 'accounting_usage')).filter((u) => u.key_id === key.id);
      expect(usage.map((u) => ({ model: u.group, requests: u.requests, spent_nano_usd: u.spent_nano_usd }))).toEqual(key.by_model);
    }
    for (const entry of await all(store, 'accounting_ledger')) {
      expect(entry.occurred_at).toBeInstanceOf(Date);
      expect(entry.recorded_at).toBeInstanceOf(Date);
    }
    const tasks = await all(store, 'video_tasks');
    expect(tasks.map((t) => [t._id, t.key_id, t.status])).toEqual(release.videos.map((v) => [v.id, v.key_id, v.status]).sort());
    for (const task of tasks)
      for (const field of ['created_at', 'updated_at', 'completed_at']) expect(task[field], field).toBeInstanceOf(Date);

    expect(await readdir(dir)).toEqual([LEGACY_ARCHIVE]);
    expect((await readdir(join(dir, LEGACY_ARCHIVE))).sort()).toEqual(Object.keys(release.files).sort());
  });

  it('imports once: run again it finds nothing and doubles nothing', async () => {
    const dir = await copyOf(RELEASE);
    const store = await open();
    expect(await importLegacyEmbedded(dir, store)).toBeDefined();
    expect(await importLegacyEmbedded(dir, store)).toBeUndefined();
    expect(await counts(store, Object.keys(releaseCounts))).toEqual(releaseCounts);
    expect(await readdir(join(dir, LEGACY_ARCHIVE))).toHaveLength(Object.keys(release.files).length);
  });

  it('completes a half-finished import: what is already stored is kept, the rest added, nothing twice', async () => {
    // A first run got part of the way: some documents are in, the files are still in place.
    const store = await open();
    await importLegacyEmbedded(await copyOf(RELEASE), store);
    const ledger = await store.collection<Row>('accounting_ledger');
    expect(await ledger.deleteMany({ kind: 'chat' })).toBeGreaterThan(0);
    await (await store.collection<Row>('video_tasks')).deleteMany({ model: 'alpha-h3' });
    await (await store.collection<Row>('accounting_keys')).updateOne({ _id: release.keys[0]?.id }, { $set: { name: 'stored first' } });

    const dir = await copyOf(RELEASE);
    const result = await importLegacyEmbedded(dir, store);
    expect(result?.collections).toEqual(releaseCounts);
    expect(await counts(store, Object.keys(releaseCounts))).toEqual(releaseCounts);
    expect((await all(store, 'video_tasks')).map((t) => t._id)).toEqual(release.videos.map((v) => v.id).sort());
    expect((await (await store.collection<Row>('accounting_keys')).findOne({ _id: release.keys[0]?.id }))?.name).toBe('stored first');
    expect(await readdir(dir)).toEqual([LEGACY_ARCHIVE]);
  });

  it('after a failure part-way, leaves the files in place; the next run completes the import', async () => {
    const dir = await copyOf(RELEASE);
    const store = await open();
    await expect(importLegacyEmbedded(dir, failingAfter(store, 6))).rejects.toThrow('disk full');
    expect((await readdir(dir)).sort()).toEqual(Object.keys(release.files).sort());

    const result = await importLegacyEmbedded(dir, store);
    expect(result?.collections).toEqual(releaseCounts);
    expect(await counts(store, Object.keys(releaseCounts))).toEqual(releaseCounts);
    expect(await readdir(dir)).toEqual([LEGACY_ARCHIVE]);
  });

  it('shares the folder with the store: gateway.db and its companions stay, the data survives a reopen', async () => {
    const dir = await copyOf(RELEASE);
    const first = await open(dir);
    // When the store imports on open (the runtime's wiring), this one finds nothing left.
    await importLegacyEmbedded(dir, first);
    expect(await counts(first, Object.keys(releaseCounts))).toEqual(releaseCounts);
    await first.close();

    const names = await readdir(dir);
    expect(names).toContain('gateway.db');
    expect(names.filter((n) => n !== LEGACY_ARCHIVE && !n.startsWith('gateway.db'))).toEqual([]);
    const second = await open(dir);
    expect(await importLegacyEmbedded(dir, second)).toBeUndefined();
    expect(await counts(second, Object.keys(releaseCounts))).toEqual(releaseCounts);
  });
});

describe('what there is to import', () => {
  it('is nothing in an empty or missing folder, or one holding only the store', async () => {
    const store = await open();
    const empty = await tempDir();
    expect(await importLegacyEmbedded(empty, store)).toBeUndefined();
    expect(await importLegacyEmbedded(join(empty, 'missing'), store)).toBeUndefined();
    const own = await tempDir();
    const ownStore = await open(own);
    await (await ownStore.collection<Row>('things')).insertOne({ _id: 'a' });
    expect(await importLegacyEmbedded(own, ownStore)).toBeUndefined();
    expect((await readdir(own)).filter((n) => !n.startsWith('gateway.db'))).toEqual([]);
    expect(await readdir(empty)).toEqual([]);
  });

  it('tolerates a torn last line, and refuses a file nedb would have refused', async () => {
    const torn = await tempDir();
    await writeFile(join(torn, 'things.db'), '{"_id":"a","n":1}\n{"_id":"b","n":');
    const store = await open();
    expect((await importLegacyEmbedded(torn, store))?.collections).toEqual({ things: 1 });

    // One bad line in three, not at the end: more than nedb's 10%.
    const damaged = await tempDir();
    await writeFile(join(damaged, 'stuff.db'), '{"_id":"a"}\n{"_id":"b",\n{"_id":"c"}\n');
    await expect(importLegacyEmbedded(damaged, store)).rejects.toThrow(/stuff\.db: 1 of 3 lines are corrupt/);
    expect(await readdir(damaged)).toEqual(['stuff.db']);
  });

  it('reads a document holding U+2028 whole, blank lines and CRLF endings too', async () => {
    const dir = await tempDir();
    const text = 'line\u2028separator\u2029and\u0085next';
    await writeFile(
      join(dir, 'notes.db'),
      `${JSON.stringify({ _id: 'n1', text })}\r\n\n${JSON.stringify({ _id: 'n2', at: { $$date: 5 } })}\n`,
    );
    const store = await open();
    expect((await importLegacyEmbedded(dir, store))?.collections).toEqual({ notes: 2 });
    expect(await all(store, 'notes')).toEqual([
      { _id: 'n1', text },
      { _id: 'n2', at: new Date(5) },
    ]);
  });

  it('leaves other files and folders alone', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'things.db'), '{"_id":"a"}\n');
    await writeFile(join(dir, 'notes.txt'), 'keep me');
    await writeFile(join(dir, 'not-a-collection.db'), 'keep me too');
    await mkdir(join(dir, 'videos'));
    await importLegacyEmbedded(dir, await open());
    expect((await readdir(dir)).sort()).toEqual([LEGACY_ARCHIVE, 'not-a-collection.db', 'notes.txt', 'videos']);
  });
});

/** The store, except that its inserts fail once `limit` of them succeeded (a full disk, say). */
function failingAfter(store: DocumentStore, limit: number): DocumentStore {
  let inserted = 0;
  return {
    kind: store.kind,
    ping: () => store.ping(),
    close: () => store.close(),
    atomically: (work) => store.atomically(work),
    transactional: store.transactional,
    transaction: (work) => store.transaction(work),
    async collection<T extends Doc>(name: string, indexes?: readonly IndexSpec[]): Promise<Collection<T>> {
      const real = await store.collection<T>(name, indexes);
      return {
        findOne: (filter) => real.findOne(filter),
        find: (filter, options) => real.find(filter, options),
        updateOne: (filter, update, options) => real.updateOne(filter, update, options),
        findOneAndUpdate: (filter, update, options) => real.findOneAndUpdate(filter, update, options),
        deleteMany: (filter) => real.deleteMany(filter),
        countDocuments: (filter) => real.countDocuments(filter),
        insertMany: (docs) => real.insertMany(docs),
        async insertOne(doc: T): Promise<void> {
          if (inserted >= limit) throw new Error('disk full');
          await real.insertOne(doc);
          inserted += 1;
        },
      };
    },
  };
}
