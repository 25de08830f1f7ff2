import type { MongoStoreOptions } from './mongodb.js';
import type { DocumentStore } from './port.js';

export * from './port.js';
export { SQLITE_FILE, SqliteStore, type SqliteStoreOptions } from './sqlite.js';
export { defaultSqliteDriver, sqliteDriverAvailable, type SqliteDriverName } from './sqlite-driver.js';
export type { MongoStore, MongoStoreOptions } from './mongodb.js';

/**
 * Connects the MongoDB adapter. The driver is loaded only here: a process on the embedded
 * store never pays its memory (about 25 MiB).
 */
export async function connectMongo(uri: string, options: MongoStoreOptions = {}): Promise<DocumentStore> {
  const { MongoStore } = await import('./mongodb.js');
  return MongoStore.connect(uri, options);
}

export { importLegacyEmbedded, LEGACY_ARCHIVE, OUTBOX_COLLECTION, type LegacyImport } from './legacy-import.js';
