import { OUTBOX_COLLECTION, type Collection, type Doc, type DocumentStore } from '@gateway/store';

// The outbox: events that must not be lost wait here, on the process's own disk, until they
// are done with. The in-process bus keeps each event until its consumer has handled it; the
// NATS bus keeps one until JetStream has acknowledged it. Both use the same table.

/** An event not yet handled (in process) or not yet acknowledged (NATS). */
export interface OutboxEntry extends Doc {
  subject: string;
  data: unknown;
  attempts: number;
  next_at: Date;
}

// The table's name is the store's (OUTBOX_COLLECTION): the import of an old data folder fills it too.
export { OUTBOX_COLLECTION };

/** Where an encoded (binary) event's bytes sit in the outbox's JSON document. No JSON event has this key. */
const BYTES_KEY = '$base64';

/** An event's data as the outbox's JSON document holds it: bytes as base64, anything else as is. */
export function toStored(data: unknown): unknown {
  return data instanceof Uint8Array ? { [BYTES_KEY]: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') } : data;
}

/** The inverse of toStored. */
export function fromStored(stored: unknown): unknown {
  if (typeof stored === 'object' && stored !== null && BYTES_KEY in stored) {
    const text = (stored as Record<string, unknown>)[BYTES_KEY];
    if (typeof text === 'string') return new Uint8Array(Buffer.from(text, 'base64'));
  }
  return stored;
}

/**
 * Opens the outbox collection of a store (the embedded SQLite store of the process's data
 * folder). `byDueTime` indexes `next_at`, which the NATS bus queries every second for what to
 * send again; the in-process bus never does, and spares each event that index's page writes.
 */
export async function openOutbox(store: DocumentStore, options: { byDueTime: boolean }): Promise<Collection<OutboxEntry>> {
  return store.collection<OutboxEntry>(OUTBOX_COLLECTION, options.byDueTime ? [{ field: 'next_at' }] : []);
}
