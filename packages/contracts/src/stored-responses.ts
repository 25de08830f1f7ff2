import { GatewayError } from '@gateway/errors';
import type { CallContext } from '@gateway/grpc';
import type { StoredResponse, StoredResponse__Output } from '@gateway/protos';
import type { AccountingClient } from './accounting.js';

// Stored responses of the Responses API (`store: true`), kept per key by accounting so any chat
// replica continues any conversation. The calls are AccountingClient's; these functions are the
// same calls for callers that hold the client as a dependency.

/** One stored response: the response object and the conversation's input items, as JSON bytes. */
export interface StoredResponseRecord {
  /** "resp_" and 8 to 64 letters or digits. */
  id: string;
  keyId: string;
  /** The response object as the caller was given it (JSON object). */
  response: Buffer;
  /** The conversation's input items up to and including this turn's (JSON array). */
  inputItems: Buffer;
  /** Unix ms; the record expires `responses.retention_seconds` after it. */
  createdAtMs: number;
}

export function storedResponseToWire(record: StoredResponseRecord): StoredResponse {
  return {
    id: record.id,
    key_id: record.keyId,
    response: record.response,
    input_items: record.inputItems,
    created_at_ms: record.createdAtMs,
  };
}

export function storedResponseFromWire(message: StoredResponse__Output): StoredResponseRecord {
  return {
    id: message.id,
    keyId: message.key_id,
    response: message.response,
    inputItems: message.input_items,
    createdAtMs: message.created_at_ms,
  };
}

/** Accounting's answer for a response that is absent, expired or another key's. */
export function isResponseNotFound(error: unknown): boolean {
  return error instanceof GatewayError && error.code === 'response_not_found';
}

/** Stores (or replaces) the key's response; an invalid record fails with `invalid_request`. */
export function putStoredResponse(client: AccountingClient, record: StoredResponseRecord, context?: CallContext): Promise<void> {
  return client.putStoredResponse(record, context);
}

/** The key's unexpired response, or undefined when it is absent, expired or another key's. */
export function getStoredResponse(
  client: AccountingClient,
  keyId: string,
  id: string,
  context?: CallContext,
): Promise<StoredResponseRecord | undefined> {
  return client.getStoredResponse(keyId, id, context);
}

/** Removes the key's response; false when there was none to remove. */
export function deleteStoredResponse(client: AccountingClient, keyId: string, id: string, context?: CallContext): Promise<boolean> {
  return client.deleteStoredResponse(keyId, id, context);
}
