import { newCompletionId, type CompletionCall, type StreamMessage } from '@gateway/contracts';
import { toOpenAIError } from '@gateway/errors';
import type { FastifyPluginAsync } from 'fastify';
import type { ModelCatalog } from '../catalog.js';
import type { Downstream } from '../downstream.js';
import { callerLeft } from '../deadlines.js';
import { relayWithRetry, type SseDialect } from '../sse-relay.js';
import { callContext } from '../telemetry.js';
import { chatGroupFor, chatScope, rawJsonBody } from './chat-call.js';

export interface ChatRoutesOptions {
  downstream: Downstream;
  catalog: ModelCatalog;
  /** gRPC deadline of a plain call (upstream timeouts and retries fit inside it). */
  unaryDeadlineMs: number;
  /** gRPC deadline of a stream: the longest a stream may run (server.max_stream_seconds). */
  streamDeadlineMs: number;
  /** A stream whose caller reads nothing for this long is cut (the call cancelled upstream). */
  stallTimeoutMs: number;
}

const DATA = Buffer.from('data: ');
const END_OF_EVENT = Buffer.from('\n\n');

/** Chat's stream: each chunk a `data:` event, [DONE] at the end, an `error` event on a failure. */
const CHAT_SSE: SseDialect<StreamMessage> = {
  frames(message) {
    if (message.chunks.length === 0) return undefined;
    const parts: Buffer[] = [];
    for (const chunk of message.chunks) parts.push(DATA, chunk, END_OF_EVENT);
    return Buffer.concat(parts);
  },
  done: Buffer.from('data: [DONE]\n\n'),
  failure: (error) => Buffer.from(`data: ${JSON.stringify(toOpenAIError(error))}\n\n`),
};

/**
 * POST /v1/chat/completions. The edge resolves the group, checks the key may call it and has
 * budget left, then hands the untouched body to the chat service: unary for plain calls,
 * server-streaming for `stream: true`, relayed as server-sent events chunk by chunk.
 */
export const chatRoutes: FastifyPluginAsync<ChatRoutesOptions> = async (app, options) => {
  const { downstream, catalog } = options;
  chatScope(app, downstream);

  app.post('/v1/chat/completions', async (request, reply) => {
    const raw = rawJsonBody(request);
    const { model, stream, group } = await chatGroupFor(request, raw, catalog);
    const call: CompletionCall = { completionId: newCompletionId(), keyId: request.apiKey.key.id, model, group, body: raw };
    if (!stream) {
      // A caller that leaves cancels the call, and with it the chat service's upstream and hold.
      const completion = await downstream.chat.createChatCompletion(call, {
        ...callContext(request),
        deadlineMs: options.unaryDeadlineMs,
        signal: callerLeft(reply),
      });
      // The overhead is observed with the request's duration, once the response has gone out.
      if (completion.upstreamMs !== undefined) request.upstreamMs = completion.upstreamMs;
      request.meteredUsage = completion.usage;
      return reply.type('application/json').send(completion.body);
    }
    const open = () => downstream.chat.streamChatCompletion(call, { ...callContext(request), deadlineMs: options.streamDeadlineMs });
    return relayWithRetry(open, request, reply, options.stallTimeoutMs, CHAT_SSE);
  });
};
