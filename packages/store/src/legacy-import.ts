import type { Dirent } from 'node:fs';
import { mkdir, open, readdir, rename, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isDuplicateKey, type Collection, type Doc, type DocumentStore } from './port.js';
import { SQLITE_FILE } from './sqlite.js';

// Imports a data folder written by the previous embedded store (@seald-io/nedb: one
// `<collection>.db` file per collection, plus the NATS bus's outbox in `outbox/<name>/outbox.db`)
// into the current store, once. nedb is no longer a dependency, so its append-only line format
// is read here by hand, following its persistence.js (treatRawStream) and model.js (deserialize):
//
// - one JSON document per line; a later line with the same `_id` supersedes an earlier one;
// - `{"$$deleted":true,"_id":…}` removes the document; `{"$$indexCreated":…}` and
//   `{"$$indexRemoved":…}` lines describe indexes, which the services declare again themselves;
// - `{"$$date": ms}` stands for a Date anywhere in a document;
// - a line that does not parse is skipped, unless too many do (see CORRUPT_ALERT_THRESHOLD).

/** The collection the old per-service outbox files go to (the bus's outbox table). */
export const OUTBOX_COLLECTION = 'bus_outbox';

/** Where the legacy files go once imported, inside the data folder. */
export const LEGACY_ARCHIVE = 'imported-legacy-embedded';

export interface LegacyImport {
  /**
   * Documents of each collection's legacy file(s), all now in the store: inserted by this run,
   * or already there from an earlier run that was interrupted.
   */
  collections: Record<string, number>;
  /** The folder the legacy files were moved to. */
  movedTo: string;
}

/** nedb's default corruptAlertThreshold: above it nedb refused to load a file, and so do we. */
const CORRUPT_ALERT_THRESHOLD = 0.1;
/** Inserts per store transaction: one commit per batch instead of one per document. */
const BATCH_SIZE = 500;
/** The names the old embedded store accepted for collections (and so for its files). */
const COLLECTION_NAME = /^[A-Za-z0-9_]+$/;
const OUTBOX_FOLDER = 'outbox';
const OUTBOX_FILE = 'outbox.db';

interface Source {
  collection: string;
  /** The file to read: `<name>.db`, or nedb's `<name>.db~` when a crash interrupted a rewrite. */
  file: string;
}

type Line =
  | { kind: 'doc'; id: string; doc: Doc & Record<string, unknown> }
  | { kind: 'deleted'; id: string }
  | { kind: 'other' }
  | { kind: 'corrupt' };

/**
 * Imports the legacy files in `dir` into `store`, then moves them into `dir/imported-legacy-embedded/`.
 * Resolves to undefined when `dir` holds none. Running it again after an interruption completes
 * the import without doubling anything: documents whose `_id` is already stored are skipped.
 */
export async function importLegacyEmbedded(dir: string, store: DocumentStore): Promise<LegacyImport | undefined> {
  const { sources, paths } = await findLegacy(dir);
  if (sources.length === 0) return undefined;

  const collections: Record<string, number> = {};
  for (const source of sources) {
    const count = await importFile(source, store);
    if (count !== undefined) collections[source.collection] = (collections[source.collection] ?? 0) + count;
  }

  // Only once every document is in: a crash before this point leaves the files where they are,
  // and the next start imports them again (skipping what is already there).
  const movedTo = join(dir, LEGACY_ARCHIVE);
  await mkdir(movedTo, { recursive: true });
  for (const path of paths) await moveInto(dir, path, movedTo);
  return { collections, movedTo };
}

/** The files to import, and the entries of `dir` to move away afterwards. */
async function findLegacy(dir: string): Promise<{ sources: Source[]; paths: string[] }> {
  const sources: Source[] = [];
  const paths: string[] = [];
  const entries = await list(dir);
  const names = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));

  for (const name of [...names].sort()) {
    if (name === SQLITE_FILE) continue;
    const match = /^(.+)\.db(~?)$/.exec(name);
    if (!match || !COLLECTION_NAME.test(match[1] as string)) continue;
    const collection = match[1] as string;
    paths.push(name);
    if (match[2] === '') sources.push({ collection, file: join(dir, name) });
    // nedb rewrites a file as `<name>.db~` then renames it; a `~` alone means the rename never
    // happened and the `~` holds the data (nedb's ensureDatafileIntegrity). Beside a `.db` it is
    // a stale leftover: moved, not read.
    else if (!names.has(`${collection}.db`)) sources.push({ collection, file: join(dir, name) });
  }

  if (entries.some((e) => e.isDirectory() && e.name === OUTBOX_FOLDER)) {
    const outboxes = await list(join(dir, OUTBOX_FOLDER));
    let found = false;
    for (const entry of outboxes.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      const files = new Set((await list(join(dir, OUTBOX_FOLDER, entry.name))).map((e) => e.name));
      const file = files.has(OUTBOX_FILE) ? OUTBOX_FILE : files.has(`${OUTBOX_FILE}~`) ? `${OUTBOX_FILE}~` : undefined;
      if (!file) continue;
      sources.push({ collection: OUTBOX_COLLECTION, file: join(dir, OUTBOX_FOLDER, entry.name, file) });
      found = true;
    }
    // The folder held nothing but the old outboxes; it goes as a whole.
    if (found) paths.push(OUTBOX_FOLDER);
  }
  return { sources, paths };
}

async function list(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/**
 * Inserts the file's surviving documents, in the order of their last lines, and returns how many
 * there are. Two passes over the same open file, so a large ledger is never held in memory: the
 * first finds each `_id`'s last line, the second inserts the lines that survived. Undefined when
 * the file is gone: another process importing the same folder finished and moved it.
 */
async function importFile(source: Source, store: DocumentStore): Promise<number | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(source.file, 'r');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  try {
    const survivors = await survivingLines(handle, source.file);
    const collection = await store.collection<Doc>(source.collection);
    let batch: Doc[] = [];
    let index = 0;
    for await (const text of lines(handle)) {
      if (text === '') continue;
      const current = index++;
      if (!survivors.has(current)) continue;
      const line = parseLine(text, true);
      if (line.kind !== 'doc') continue;
      batch.push(line.doc);
      if (batch.length >= BATCH_SIZE) {
        await insertAll(store, collection, batch);
        batch = [];
      }
    }
    await insertAll(store, collection, batch);
    return survivors.size;
  } finally {
    await handle.close();
  }
}

/** The indexes (among non-empty lines) of the lines holding each document's final version. */
async function survivingLines(handle: FileHandle, file: string): Promise<Set<number>> {
  const last = new Map<string, number>();
  let index = 0;
  let corrupt = 0;
  let lastWasCorrupt = false;
  for await (const text of lines(handle)) {
    // nedb skips blank lines without counting them.
    if (text === '') continue;
    const current = index++;
    // Only `_id` and `$$deleted` matter here; Dates are revived in the second pass.
    const line = parseLine(text, false);
    lastWasCorrupt = line.kind === 'corrupt';
    if (line.kind === 'corrupt') corrupt += 1;
    else if (line.kind === 'doc') last.set(line.id, current);
    else if (line.kind === 'deleted') last.delete(line.id);
  }
  // A torn last line is an append a crash cut short, which its caller never saw succeed:
  // dropping it loses nothing, so it does not count against the file.
  if (lastWasCorrupt) corrupt -= 1;
  if (index > 0 && corrupt / index > CORRUPT_ALERT_THRESHOLD) {
    throw new Error(
      `${file}: ${corrupt} of ${index} lines are corrupt, more than nedb's ${CORRUPT_ALERT_THRESHOLD * 100}%; not importing it (the previous release would have refused it too)`,
    );
  }
  return new Set(last.values());
}

/**
 * The file's lines, read from its start through the open handle (so a rename by another
 * process in between cannot swap the file). Lines end at `\n` (or `\r\n`), the only separators
 * nedb writes; nedb's own reader also split at U+2028, U+2029 and U+0085, which JSON leaves raw in
 * strings, so it lost documents holding them. Here they are read whole.
 */
async function* lines(handle: FileHandle): AsyncGenerator<string> {
  // Split by hand: readline also breaks lines at U+2028/U+2029 on newer Node versions.
  // Not destroyed at the end: that would close the handle, which the caller reads twice and closes.
  const input = handle.createReadStream({ start: 0, encoding: 'utf8', autoClose: false });
  let rest = '';
  for await (const chunk of input as AsyncIterable<string>) {
    rest += chunk;
    let start = 0;
    for (let newline = rest.indexOf('\n'); newline !== -1; newline = rest.indexOf('\n', start)) {
      const line = rest.slice(start, newline);
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
      start = newline + 1;
    }
    rest = rest.slice(start);
  }
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}

/** One line as nedb's loader sees it. */
function parseLine(text: string, reviveDates: boolean): Line {
  let value: unknown;
  try {
    value = reviveDates ? JSON.parse(text, revive) : JSON.parse(text);
  } catch {
    return { kind: 'corrupt' };
  }
  // nedb reads `doc._id`: on null that throws (a corrupt line); other non-documents are ignored.
  if (value === null) return { kind: 'corrupt' };
  if (!isRecord(value)) return { kind: 'other' };
  const id = value._id;
  // Lines without an `_id` are nedb's index bookkeeping ($$indexCreated, $$indexRemoved).
  if (!id) return { kind: 'other' };
  // The gateway only ever chose string ids; anything else was not written by it.
  if (typeof id !== 'string') return { kind: 'corrupt' };
  if (value.$$deleted === true) return { kind: 'deleted', id };
  return { kind: 'doc', id, doc: { ...value, _id: id } };
}

/** nedb's model.deserialize: `{"$$date": n}` (however deep) becomes `new Date(n)`. */
function revive(key: string, value: unknown): unknown {
  if (key === '$$date') return new Date(value as number | string);
  // JSON.parse revives bottom-up, so the inner `$$date` is a Date by now.
  if (isRecord(value) && Object.hasOwn(value, '$$date')) return value.$$date;
  return value;
}

/**
 * Inserts the documents not yet stored, in one transaction where the store has them (one commit
 * per batch, not per document); a batch that fails is done again whole by the next run.
 */
async function insertAll(store: DocumentStore, collection: Collection<Doc>, docs: readonly Doc[]): Promise<void> {
  if (docs.length === 0) return;
  await store.atomically(async () => {
    // One query per batch finds what an earlier, interrupted run already stored, so a rerun
    // does not pay a failed insert per document.
    const stored = await collection.find({ _id: { $in: docs.map((d) => d._id) } });
    const present = new Set(stored.map((d) => d._id));
    for (const doc of docs) {
      if (present.has(doc._id)) continue;
      try {
        await collection.insertOne(doc);
      } catch (error) {
        // Stored meanwhile (another process importing the same folder), or hidden from the
        // query above by a TTL index: either way the store already has it.
        if (!isDuplicateKey(error)) throw error;
      }
    }
  });
}

/** Moves `dir/name` into `archive`, under a free name should an earlier import have left one. */
async function moveInto(dir: string, name: string, archive: string): Promise<void> {
  let target = join(archive, name);
  for (let n = 1; await exists(target); n += 1) target = join(archive, `${name}.${n}`);
  try {
    await rename(join(dir, name), target);
  } catch (error) {
    // Another process importing the same folder moved it first.
    if (!isNotFound(error)) throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}
