import type { DocumentStore } from './port.js';
import { SqliteStore } from './sqlite.js';

export * from './port.js';
export { SQLITE_FILE, SqliteStore, type SqliteStoreOptions } from './sqlite.js';
export type { MongoStore } from './mongodb.js';

/**
 * Connects the MongoDB adapter. The driver is loaded only here: a process on the embedded
 * store never pays its memory (about 25 MiB).
 */
export async function connectMongo(uri: string, dbName?: string): Promise<DocumentStore> {
  const { MongoStore } = await import('./mongodb.js');
  return MongoStore.connect(uri, dbName);
}

export interface StoreOptions {
  /** When set, MongoDB; otherwise the embedded store in `dataDir`. */
  mongodbUri?: string | undefined;
  /** The embedded store's folder. */
  dataDir: string;
  /** MongoDB database name when the URI has none. */
  dbName?: string;
  /** The embedded store's `synchronous` setting (SQLITE_SYNCHRONOUS): `normal` (default) or `full`. */
  synchronous?: string | undefined;
}

export async function openStore(options: StoreOptions): Promise<DocumentStore> {
  if (options.mongodbUri) return connectMongo(options.mongodbUri, options.dbName);
  return new SqliteStore(options.dataDir, { synchronous: options.synchronous === 'full' ? 'full' : 'normal' });
}
export { importLegacyEmbedded, LEGACY_ARCHIVE, OUTBOX_COLLECTION, type LegacyImport } from './legacy-import.js';
