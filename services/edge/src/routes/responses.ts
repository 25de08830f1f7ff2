import { newResponseId, type ResponseCall, type ResponseStreamMessage } from '@gateway/contracts';
import { toOpenAIError, type GatewayError } from '@gateway/errors';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ModelCatalog } from '../catalog.js';
import { callerLeft } from '../deadlines.js';
import type { Downstream } from '../downstream.js';
import { relayWithRetry, type SseDialect } from '../sse-relay.js';
import { callContext } from '../telemetry.js';
import { chatGroupFor, chatScope, rawJsonBody } from './chat-call.js';

export interface ResponsesRoutesOptions {
  downstream: Downstream;
  catalog: ModelCatalog;
  /** The operator keeps Responses API responses at all (gateway.yaml `responses.store`). */
  storeResponses: boolean;
  unaryDeadlineMs: number;
  streamDeadlineMs: number;
  stallTimeoutMs: number;
}

/** Tool types the group could not run, for the caller to see (absent when none was dropped). */
const DROPPED_HEADER = 'x-gateway-dropped';

/**
 * The Responses API's stream: the chat service writes whole event frames; a failure after the
 * stream started is a `response.failed` event numbered after the last one relayed.
 */
function responsesSse(call: ResponseCall): SseDialect<ResponseStreamMessage> {
  let relayed = 0;
  return {
    frames(message) {
      relayed += message.events.length;
      return message.events.length === 0 ? undefined : Buffer.concat(message.events);
    },
    done: undefined,
    failure: (error: GatewayError) => failedEvent(call, relayed, error),
    headers: (first): Record<string, string> =>
      first && first.dropped_tools.length > 0 ? { [DROPPED_HEADER]: first.dropped_tools.join(',') } : {},
  };
}

function failedEvent(call: ResponseCall, sequence: number, error: GatewayError): Buffer {
  const { error: shaped } = toOpenAIError(error);
  const response = {
    id: call.responseId,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'failed',
    error: { code: shaped.code ?? shaped.type, message: shaped.message },
    incomplete_details: null,
    model: call.model,
    output: [],
    usage: null,
  };
  const event = { type: 'response.failed', sequence_number: sequence, response };
  return Buffer.from(`event: response.failed\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * POST /v1/responses: the Responses API on every chat group. The edge checks what it checks of a
 * chat call (group, access, budget) and hands the untouched body to the chat service, which
 * translates it onto the chat pipeline and back.
 */
export const responsesRoutes: FastifyPluginAsync<ResponsesRoutesOptions> = async (app, options) => {
  const { downstream, catalog } = options;
  chatScope(app, downstream);

  app.post('/v1/responses', async (request, reply) => {
    const raw = rawJsonBody(request);
    const { model, stream, group } = await chatGroupFor(request, raw, catalog);
    const { key } = request.apiKey;
    const call: ResponseCall = {
      responseId: newResponseId(),
      keyId: key.id,
      model,
      group,
      body: raw,
      storageOff: !options.storeResponses || key.response_storage_off === true,
    };
    if (stream) {
      const open = () => downstream.chat.streamResponse(call, { ...callContext(request), deadlineMs: options.streamDeadlineMs });
      return relayWithRetry(open, request, reply, options.stallTimeoutMs, responsesSse(call));
    }
    return plain(call, request, reply, options.unaryDeadlineMs);
  });

  async function plain(call: ResponseCall, request: FastifyRequest, reply: FastifyReply, deadlineMs: number): Promise<FastifyReply> {
    const result = await downstream.chat.createResponse(call, { ...callContext(request), deadlineMs, signal: callerLeft(reply) });
    if (result.upstreamMs !== undefined) request.upstreamMs = result.upstreamMs;
    request.meteredUsage = result.usage;
    if (result.droppedTools.length > 0) reply.header(DROPPED_HEADER, result.droppedTools.join(','));
    return reply.type('application/json').send(result.body);
  }
};
