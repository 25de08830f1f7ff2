import { newMessageId, type AnthropicMessageCall, type DialectStreamMessage } from '@gateway/contracts';
import { toAnthropicError, type GatewayError } from '@gateway/errors';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ModelCatalog } from '../catalog.js';
import { callerLeft } from '../deadlines.js';
import type { Downstream } from '../downstream.js';
import { relayWithRetry, type SseDialect } from '../sse-relay.js';
import { callContext } from '../telemetry.js';
import { chatGroupFor, chatScope, rawJsonBody } from './chat-call.js';

export interface MessagesRoutesOptions {
  downstream: Downstream;
  catalog: ModelCatalog;
  unaryDeadlineMs: number;
  streamDeadlineMs: number;
  stallTimeoutMs: number;
  /** A `ping` after this long without another event (Anthropic sends one every few seconds). */
  pingIntervalMs?: number;
}

/** Tool types the group could not run, for the caller to see (absent when none was dropped). */
const DROPPED_HEADER = 'x-gateway-dropped';
const PING = Buffer.from('event: ping\ndata: {"type":"ping"}\n\n');

/** Anthropic's stream: the chat service writes whole event frames; a failure after the start is an `error` event. */
const MESSAGES_SSE: Omit<SseDialect<DialectStreamMessage>, 'keepAlive'> = {
  frames: (message) => (message.events.length === 0 ? undefined : Buffer.concat(message.events)),
  done: undefined,
  failure: (error: GatewayError) => Buffer.from(`event: error\ndata: ${JSON.stringify(toAnthropicError(error).body)}\n\n`),
  headers: (first): Record<string, string> =>
    first && first.dropped_tools.length > 0 ? { [DROPPED_HEADER]: first.dropped_tools.join(',') } : {},
};

/**
 * POST /v1/messages and /v1/messages/count_tokens: Anthropic's Messages API on every chat group.
 * The edge checks what it checks of a chat call (group, access, budget), with the key from
 * `x-api-key` or a bearer, and hands the untouched body to the chat service, which translates
 * it onto the chat pipeline and back. `anthropic-version` and `anthropic-beta` are accepted and
 * change nothing; errors here are in Anthropic's shape (errors.ts).
 */
export const messagesRoutes: FastifyPluginAsync<MessagesRoutesOptions> = async (app, options) => {
  const { downstream, catalog } = options;
  chatScope(app, downstream);
  const dialect: SseDialect<DialectStreamMessage> = {
    ...MESSAGES_SSE,
    keepAlive: { intervalMs: options.pingIntervalMs ?? 10_000, frame: PING },
  };

  app.post('/v1/messages', async (request, reply) => {
    const raw = rawJsonBody(request);
    const { model, stream, group } = await chatGroupFor(request, raw, catalog);
    const call: AnthropicMessageCall = { messageId: newMessageId(), keyId: request.apiKey.key.id, model, group, body: raw };
    if (stream) {
      const open = () => downstream.chat.streamAnthropicMessage(call, { ...callContext(request), deadlineMs: options.streamDeadlineMs });
      return relayWithRetry(open, request, reply, options.stallTimeoutMs, dialect);
    }
    return plain(call, request, reply, options.unaryDeadlineMs);
  });

  app.post('/v1/messages/count_tokens', async (request) => {
    const raw = rawJsonBody(request);
    // Counting costs nothing: a key whose budget is spent may still count.
    const { group } = await chatGroupFor(request, raw, catalog, { spends: false });
    return { input_tokens: await downstream.chat.countAnthropicTokens(group, raw, callContext(request)) };
  });

  async function plain(
    call: AnthropicMessageCall,
    request: FastifyRequest,
    reply: FastifyReply,
    deadlineMs: number,
  ): Promise<FastifyReply> {
    const result = await downstream.chat.createAnthropicMessage(call, { ...callContext(request), deadlineMs, signal: callerLeft(reply) });
    if (result.upstreamMs !== undefined) request.upstreamMs = result.upstreamMs;
    request.meteredUsage = result.usage;
    if (result.droppedTools.length > 0) reply.header(DROPPED_HEADER, result.droppedTools.join(','));
    return reply.type('application/json').send(result.body);
  }
};
