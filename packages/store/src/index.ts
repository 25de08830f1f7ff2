import { EmbeddedStore } from './embedded.js';
import { MongoStore } from './mongodb.js';
import type { DocumentStore } from './port.js';

export * from './port.js';
export { EmbeddedStore } from './embedded.js';
export { MongoStore } from './mongodb.js';

export interface StoreOptions {
  /** When set, MongoDB; otherwise the embedded store in `dataDir`. */
  mongodbUri?: string | undefined;
  /** The embedded store's folder. */
  dataDir: string;
  /** MongoDB database name when the URI has none. */
  dbName?: string;
}

export async function openStore(options: StoreOptions): Promise<DocumentStore> {
  if (options.mongodbUri) return MongoStore.connect(options.mongodbUri, options.dbName);
  return new EmbeddedStore(options.dataDir);
}
