import { groupMode } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerMay } from '../auth.js';
import type { ModelCatalog } from '../catalog.js';
import type { Downstream } from '../downstream.js';
import { peekChatFields } from '../peek.js';
import { callContext } from '../telemetry.js';

// What the edge checks of a chat call in any dialect before the chat service sees it: a JSON
// body, a chat group the key may call, and budget left. The body itself goes on untouched.

/** A chat dialect's plugin scope: bodies kept as the caller sent them; a 503 at once while chat is down. */
export function chatScope(app: FastifyInstance, downstream: Downstream): void {
  // The body reaches the chat service as the caller sent it; only this scope keeps it raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // While the probes find the chat service down, calls get a 503 at once rather than a deadline's wait.
  app.addHook('onRequest', (_request, _reply, done) => done(downstream.refusal('chat')));
}

/** The raw JSON body (the chat routes keep bodies as bytes); none at all is a 400. */
export function rawJsonBody(request: FastifyRequest): Buffer {
  // No body at all (no Content-Type, or none sent) never reaches the JSON parser.
  if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
    throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object (Content-Type: application/json).' });
  }
  return request.body;
}

/** The parts of the body the edge itself needs, parsed in full (where the peek cannot say, and for the error). */
function parsedFields(raw: Buffer): { model: string; stream: boolean } {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new GatewayError('invalid_json');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object.' });
  }
  const { model, stream } = body as { model?: unknown; stream?: unknown };
  if (typeof model !== 'string' || model === '') {
    throw new GatewayError('invalid_request', {
      param: 'model',
      message: "Invalid value for 'model': is required (a model group or alias).",
    });
  }
  return { model, stream: stream === true };
}

/** The call's `model`, `stream` and resolved chat group; refused when the key may not call it or has no budget left. */
export async function chatGroupFor(
  request: FastifyRequest,
  raw: Buffer,
  catalog: ModelCatalog,
  /** Refused once the key's budget is spent; off for what costs nothing (count_tokens). */
  { spends = true } = {},
): Promise<{ model: string; stream: boolean; group: string }> {
  // The top level read in place; a full parse only where that cannot say (and for the error).
  const { model, stream } = peekChatFields(raw) ?? parsedFields(raw);
  const { key, spentNanoUsd } = request.apiKey;
  const group = await catalog.resolve(model, callContext(request));
  if (!group) throw new GatewayError('model_not_found', { param: 'model' });
  request.metricsGroup = group.id;
  if (!callerMay(request.apiKey, group.id)) throw new GatewayError('model_not_allowed', { param: 'model' });
  const mode = groupMode(group);
  if (mode !== 'chat')
    throw new GatewayError('invalid_request', {
      param: 'model',
      message: `'${model}' is a ${mode ?? 'non-chat'} model; use its own endpoint.`,
    });
  if (spends && spentNanoUsd >= key.budget_nano_usd) throw new GatewayError('budget_exceeded');
  return { model, stream, group: group.id };
}
