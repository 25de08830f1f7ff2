import { GatewayError } from '@gateway/errors';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Downstream } from '../downstream.js';
import { callContext } from '../telemetry.js';

// Stored responses, as the key that made them reads them back: GET, DELETE, and the input items
// a page at a time. Accounting keeps them (docs/responses.md); another key's, an expired one or
// a revoked key's are all the same 404.

export interface StoredResponsesRoutesOptions {
  downstream: Downstream;
}

interface ResponsePath {
  Params: { id: string };
}

interface InputItemsQuery {
  Params: { id: string };
  Querystring: { after?: string; limit?: string; order?: string };
}

const RESPONSE_ID = /^resp_[A-Za-z0-9]{8,64}$/;

function responseId(request: FastifyRequest<ResponsePath>): string {
  const { id } = request.params;
  // An id the gateway never issued cannot be stored: the same 404 without asking accounting.
  if (!RESPONSE_ID.test(id)) throw new GatewayError('response_not_found', { param: 'response_id' });
  return id;
}

/** `limit` from 1 to 100 (default 20), `order` asc or desc (default desc), as OpenAI pages lists. */
function pageOf(query: InputItemsQuery['Querystring']): { limit: number; order: 'asc' | 'desc'; after: string | undefined } {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new GatewayError('invalid_request', {
      param: 'limit',
      message: "Invalid value for 'limit': must be a whole number from 1 to 100.",
    });
  }
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw new GatewayError('invalid_request', { param: 'order', message: "Invalid value for 'order': must be asc or desc." });
  }
  return { limit, order, after: query.after };
}

function itemsOf(bytes: Buffer): Record<string, unknown>[] {
  const items = JSON.parse(bytes.toString('utf8')) as unknown;
  return Array.isArray(items) ? items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
}

export const storedResponsesRoutes: FastifyPluginAsync<StoredResponsesRoutesOptions> = async (app, { downstream }) => {
  const stored = async (request: FastifyRequest<ResponsePath>) => {
    const record = await downstream.accounting.getStoredResponse(request.apiKey.key.id, responseId(request), callContext(request));
    if (!record) throw new GatewayError('response_not_found', { param: 'response_id' });
    return record;
  };

  app.get<ResponsePath>('/v1/responses/:id', async (request, reply) => {
    const record = await stored(request);
    return reply.type('application/json').send(record.response);
  });

  app.delete<ResponsePath>('/v1/responses/:id', async (request) => {
    const id = responseId(request);
    const deleted = await downstream.accounting.deleteStoredResponse(request.apiKey.key.id, id, callContext(request));
    if (!deleted) throw new GatewayError('response_not_found', { param: 'response_id' });
    return { id, object: 'response', deleted: true };
  });

  app.get<InputItemsQuery>('/v1/responses/:id/input_items', async (request) => {
    const { limit, order, after } = pageOf(request.query);
    const record = await stored(request);
    let items = itemsOf(record.inputItems);
    if (order === 'desc') items = items.reverse();
    if (after !== undefined) {
      const at = items.findIndex((item) => item.id === after);
      // A cursor that names no item of this response starts nowhere: an empty page.
      items = at === -1 ? [] : items.slice(at + 1);
    }
    const data = items.slice(0, limit);
    return {
      object: 'list',
      data,
      first_id: (data[0]?.id as string | undefined) ?? null,
      last_id: (data.at(-1)?.id as string | undefined) ?? null,
      has_more: items.length > limit,
    };
  });
};
