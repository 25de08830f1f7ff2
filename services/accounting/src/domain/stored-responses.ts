import type { Collection, Doc, DocumentStore } from '@gateway/store';

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

function entryOf(document: StoredResponseDocument): StoredResponseEntry {
  return {
    id: document._id,
    keyId: document.key_id,
    response: document.response,
    inputItems: document.input_items,
    createdAtMs: document.created_at.getTime(),
  };
}

export class StoredResponses {
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
