import { GatewayError } from '@gateway/errors';
import type { AccountingServiceHandlers, StoredResponse, StoredResponse__Output } from '@gateway/protos';
import { isDuplicateKey } from '@gateway/store';
import type { StoredResponseEntry } from '../domain/stored-responses.js';
import type { HandlerContext } from './context.js';

// The stored-response RPCs (the Responses API's `store`): put, get and delete, each within one
// key. A response that is absent, expired or another key's is NOT_FOUND alike, so a caller
// learns nothing of other keys' ids.

type StoredResponseRpc = 'PutStoredResponse' | 'GetStoredResponse' | 'DeleteStoredResponse';

const RESPONSE_ID = /^resp_[A-Za-z0-9]{8,64}$/;
// Fatal: bytes that are not UTF-8 are refused, not stored with replacement characters.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', { param, message });
}

function checkKeyId(keyId: string): string {
  if (!keyId) throw invalid('key_id', 'key_id is required');
  return keyId;
}

function checkResponseId(id: string, param: string): string {
  if (!RESPONSE_ID.test(id)) throw invalid(param, `${param} must be "resp_" and 8 to 64 letters or digits`);
  return id;
}

/**
 * The bytes as UTF-8 text that opens and closes as a JSON object (`array`: an array). The
 * writer is the chat service, which made the text with JSON.stringify; parsing it again here
 * cost a sixth of a stored call's CPU (bench/history/2026-11-28-responses.md).
 */
function jsonText(bytes: Buffer, param: string, shape: 'object' | 'array'): string {
  let text: string;
  try {
    text = utf8.decode(bytes).trim();
  } catch {
    throw invalid(param, `${param} must be JSON`);
  }
  const [open, close] = shape === 'array' ? ['[', ']'] : ['{', '}'];
  if (!text.startsWith(open) || !text.endsWith(close)) throw invalid(param, `${param} must be a JSON ${shape}`);
  return text;
}

function entryOf(message: StoredResponse__Output | null, now: number): StoredResponseEntry {
  if (!message) throw invalid('response', 'response is required');
  const createdAtMs = message.created_at_ms || now;
  if (!Number.isSafeInteger(createdAtMs) || createdAtMs < 0) throw invalid('created_at_ms', 'created_at_ms must be Unix milliseconds');
  return {
    id: checkResponseId(message.id, 'id'),
    keyId: checkKeyId(message.key_id),
    response: jsonText(message.response, 'response', 'object'),
    inputItems: jsonText(message.input_items, 'input_items', 'array'),
    createdAtMs,
  };
}

function messageOf(entry: StoredResponseEntry): StoredResponse {
  return {
    id: entry.id,
    key_id: entry.keyId,
    response: Buffer.from(entry.response, 'utf8'),
    input_items: Buffer.from(entry.inputItems, 'utf8'),
    created_at_ms: entry.createdAtMs,
  };
}

function notFound(id: string): GatewayError {
  return new GatewayError('response_not_found', { message: `No response found with id '${id}'.` });
}

export function storedResponseHandlers({
  server,
  storedResponses,
  clock,
}: HandlerContext): Pick<AccountingServiceHandlers, StoredResponseRpc> {
  return {
    PutStoredResponse: server.unary('PutStoredResponse', async (request) => {
      const entry = entryOf(request.response, clock());
      await storedResponses.put(entry).catch((error: unknown) => {
        // Ids are random: another key holding this one is a caller's bug, never a takeover.
        if (isDuplicateKey(error)) throw invalid('id', `the response id '${entry.id}' is taken`);
        throw error;
      });
      return {};
    }),
    GetStoredResponse: server.unary('GetStoredResponse', async (request) => {
      const id = checkResponseId(request.response_id, 'response_id');
      const entry = await storedResponses.get(checkKeyId(request.key_id), id);
      if (!entry) throw notFound(id);
      return { response: messageOf(entry) };
    }),
    DeleteStoredResponse: server.unary('DeleteStoredResponse', async (request) => {
      const id = checkResponseId(request.response_id, 'response_id');
      if (!(await storedResponses.delete(checkKeyId(request.key_id), id))) throw notFound(id);
      return {};
    }),
  };
}
