import { isDuplicateKey, type Collection, type Doc, type DocumentStore } from '@gateway/store';

// Stored responses of the Responses API (`store: true`): kept per key for the configured
// retention, so any chat replica can continue any conversation.

/** One stored response as the store keeps it. */
export interface StoredResponseDocument extends Doc {
  key_id: string;
  /**
   * The response object's JSON text, as it came. Kept as text, not bytes: the embedded store
   * holds documents as JSON (a string costs a few escapes, base64 a third more) and MongoDB
   * takes a string as it is.
   */
  response: string;
  /** The conversation's input items up to this turn, as JSON array text. */
  input_items: string;
  created_at: Date;
}

/** A stored response as accounting's handlers speak of it. */
export interface StoredResponseEntry {
  id: string;
  keyId: string;
  response: string;
  inputItems: string;
  createdAtMs: number;
}

export const STORED_RESPONSES_COLLECTION = 'accounting_stored_responses';

function documentOf(entry: StoredResponseEntry): StoredResponseDocument {
  return {
    _id: entry.id,
    key_id: entry.keyId,
    response: entry.response,
    input_items: entry.inputItems,
    created_at: new Date(entry.createdAtMs),
  };
}

function entryOf(document: StoredResponseDocument): StoredResponseEntry {
  return {
    id: document._id,
    keyId: document.key_id,
    response: document.response,
    inputItems: document.input_items,
    createdAtMs: document.created_at.getTime(),
  };
}

/** A put waiting for the batch it rides in. */
interface PendingPut {
  entry: StoredResponseEntry;
  done: (error?: unknown) => void;
}

export class StoredResponses {
  /** Puts of this turn of the event loop, written together in one insert (one commit). */
  #pending: PendingPut[] = [];

  private constructor(
    private readonly responses: Collection<StoredResponseDocument>,
    private readonly retentionSeconds: number,
    private readonly clock: () => number,
  ) {}

  static async open(store: DocumentStore, retentionSeconds: number, clock: () => number = Date.now): Promise<StoredResponses> {
    // Lookups go by _id (the store's own key); the TTL index sweeps what expired, and reads also
    // check the age, so expiry is exact between sweeps.
    const responses = await store.collection<StoredResponseDocument>(STORED_RESPONSES_COLLECTION, [
      { field: 'created_at', expireAfterSeconds: retentionSeconds },
    ]);
    return new StoredResponses(responses, retentionSeconds, clock);
  }

  #alive() {
    return { created_at: { $gt: new Date(this.clock() - this.retentionSeconds * 1000) } };
  }

  /**
   * Writes the response, replacing the key's own record of that id (a retried put lands once).
   * An id another key holds fails with StoreError `duplicate_key` rather than taking it over.
   */
  async put(entry: StoredResponseEntry): Promise<void> {
    // Every Responses call with `store` writes one: the puts of one turn of the event loop share
    // one insert and one commit, which costs a call about what an insert of its own would
    // (bench/history/2026-11-28-responses.md). The caller hears back once its batch is written.
    await new Promise<void>((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => void this.#flush());
      this.#pending.push({ entry, done: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    try {
      await this.responses.insertMany(batch.map(({ entry }) => documentOf(entry)));
      for (const put of batch) put.done();
    } catch (error) {
      // A retried put finds its id written already: each goes again alone, as the upsert it is.
      if (!isDuplicateKey(error)) for (const put of batch) put.done(error);
      else for (const put of batch) await this.#upsert(put.entry).then(() => put.done(), put.done);
    }
  }

  /** Writes the response, replacing the key's own record of that id; another key's id fails with `duplicate_key`. */
  async #upsert(entry: StoredResponseEntry): Promise<void> {
    await this.responses.updateOne(
      { _id: entry.id, key_id: entry.keyId },
      { $set: { response: entry.response, input_items: entry.inputItems, created_at: new Date(entry.createdAtMs) } },
      { upsert: true },
    );
  }

  /** The key's own unexpired response; another key's is as absent as an unknown one. */
  async get(keyId: string, id: string): Promise<StoredResponseEntry | undefined> {
    const document = await this.responses.findOne({ _id: id, key_id: keyId, ...this.#alive() });
    return document ? entryOf(document) : undefined;
  }

  /** Removes the key's own unexpired response; false when there was none. */
  async delete(keyId: string, id: string): Promise<boolean> {
    return (await this.responses.deleteMany({ _id: id, key_id: keyId, ...this.#alive() })) > 0;
  }
}
