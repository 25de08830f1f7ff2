import { groupMode, newCompletionId, type CompletionCall, type CompletionStream, type StreamMessage } from '@gateway/contracts';
import { GatewayError, toOpenAIError } from '@gateway/errors';
import { fromServiceError, isServiceError, isTransportUnavailable, Status as GrpcStatus, upstreamMsOf } from '@gateway/grpc';
import type { Metadata } from '@grpc/grpc-js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { callerMay } from '../auth.js';
import type { ModelCatalog } from '../catalog.js';
import { peekChatFields } from '../peek.js';
import type { Downstream } from '../downstream.js';
import { callerLeft } from '../deadlines.js';
import { cutWhenStalled } from '../stall.js';
import { callContext, observeStreamOverhead, recordLeftStream } from '../telemetry.js';

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

/** The SSE events for a message's chunks, as one buffer (one write). */
function events(chunks: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const chunk of chunks) parts.push(DATA, chunk, END_OF_EVENT);
  return Buffer.concat(parts);
}
const DONE = Buffer.from('data: [DONE]\n\n');

/** A stream that failed in transport before its first chunk: safe to open again. */
class TransportFailure extends Error {
  constructor(readonly error: GatewayError) {
    super('the chat service could not be reached', { cause: error });
  }
}

/** The parts of the body the edge itself needs; everything else is the chat service's to judge. */
function peek(raw: Buffer): { model: string; stream: boolean } {
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

/**
 * POST /v1/chat/completions. The edge resolves the group, checks the key may call it and has
 * budget left, then hands the untouched body to the chat service: unary for plain calls,
 * server-streaming for `stream: true`, relayed as server-sent events chunk by chunk.
 */
export const chatRoutes: FastifyPluginAsync<ChatRoutesOptions> = async (app, options) => {
  const { downstream, catalog } = options;
  // The body reaches the chat service as the caller sent it; only this scope keeps it raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // While the probes find the chat service down, calls get a 503 at once rather than a deadline's wait.
  app.addHook('onRequest', (_request, _reply, done) => done(downstream.refusal('chat')));

  app.post('/v1/chat/completions', async (request, reply) => {
    // No body at all (no Content-Type, or none sent) never reaches the JSON parser.
    if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
      throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object (Content-Type: application/json).' });
    }
    const raw = request.body;
    // The top level read in place; a full parse only where that cannot say (and for the error).
    const { model, stream } = peekChatFields(raw) ?? peek(raw);
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
    if (spentNanoUsd >= key.budget_nano_usd) throw new GatewayError('budget_exceeded');

    const call: CompletionCall = { completionId: newCompletionId(), keyId: key.id, model, group: group.id, body: raw };
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
    // A connection that failed before the first chunk (a chat replica gone) is tried once more.
    return relay(open(), request, reply, options.stallTimeoutMs).catch((error: unknown) => {
      if (!(error instanceof TransportFailure)) throw error;
      return relay(open(), request, reply, options.stallTimeoutMs).catch((again: unknown) => {
        throw again instanceof TransportFailure ? again.error : again;
      });
    });
  });
};

/**
 * Relays a chunk stream as SSE. Until the first chunk nothing is written, so a failure still
 * becomes an HTTP status; after it, a failure is an `error` event and the end of the stream.
 * A caller that goes away cancels the call, and the chat service aborts the upstream.
 */
async function relay(
  stream: CompletionStream,
  request: FastifyRequest,
  reply: FastifyReply,
  stallTimeoutMs: number,
): Promise<FastifyReply> {
  // Leading metadata, before the first message: the upstream's time to its first chunk.
  let upstreamMs: number | undefined;
  stream.once('metadata', (metadata: Metadata) => {
    upstreamMs = upstreamMsOf(metadata);
  });
  const first = await new Promise<StreamMessage | null>((resolve, reject) => {
    const onData = (message: StreamMessage) => {
      cleanup();
      stream.pause();
      resolve(message);
    };
    const onError = (error: unknown) => {
      cleanup();
      if (isTransportUnavailable(error)) reject(new TransportFailure(fromServiceError(error)));
      else reject(isServiceError(error) ? fromServiceError(error) : error);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('error', onError);
      stream.off('end', onEnd);
    };
    stream.on('data', onData);
    stream.on('error', onError);
    stream.on('end', onEnd);
    request.raw.once('close', () => {
      if (!reply.raw.headersSent) stream.cancel();
    });
  }).catch((error: unknown) => {
    throw error instanceof GatewayError || error instanceof TransportFailure ? error : new GatewayError('internal_error', { cause: error });
  });

  reply.hijack();
  request.streamStarted = true;
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  cutWhenStalled(res, stallTimeoutMs, () =>
    request.log.warn({ requestId: request.id, stallTimeoutMs }, 'stream cut: its caller read nothing for the stall timeout'),
  );
  if (first) {
    if (first.usage) request.meteredUsage = first.usage;
    if (first.chunks.length > 0) res.write(events(first.chunks));
    if (upstreamMs !== undefined) observeStreamOverhead(request, reply, upstreamMs);
  }

  if (first === null) {
    res.end(DONE);
    return reply;
  }
  // Once the caller is gone or the response has ended, nothing more is written.
  const open = () => !res.writableEnded && !res.destroyed;
  res.once('close', () => {
    if (res.writableFinished) return;
    stream.cancel();
    recordLeftStream(request, reply);
  });
  stream.on('data', (message: StreamMessage) => {
    // The last message carries no chunks: what the call was metered at, for the access line.
    if (message.usage) request.meteredUsage = message.usage;
    if (message.chunks.length > 0 && open() && !res.write(events(message.chunks))) {
      stream.pause();
      res.once('drain', () => stream.resume());
    }
  });
  stream.on('end', () => {
    if (open()) res.end(DONE);
  });
  stream.on('error', (error: unknown) => {
    if (!open()) return;
    if (isServiceError(error) && error.code === GrpcStatus.CANCELLED) {
      res.end();
      return;
    }
    const gatewayError = isServiceError(error) ? fromServiceError(error) : new GatewayError('internal_error', { cause: error });
    // The access line (status 200, the stream having started) says how it ended; only the
    // gateway's own fault gets a line of its own (an upstream's was logged by the chat service).
    request.errorCode = gatewayError.code;
    if (gatewayError.code === 'internal_error')
      request.log.error({ err: error, requestId: request.id, traceId: request.telemetry?.traceId }, 'stream failed after it started');
    res.end(`data: ${JSON.stringify(toOpenAIError(gatewayError))}\n\n`);
  });
  stream.resume();
  return reply;
}
