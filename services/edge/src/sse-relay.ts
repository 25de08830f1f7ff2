import { GatewayError } from '@gateway/errors';
import { fromServiceError, isServiceError, isTransportUnavailable, Status as GrpcStatus, upstreamMsOf } from '@gateway/grpc';
import type { Metadata, ClientReadableStream } from '@grpc/grpc-js';
import type { MeteredUsage__Output } from '@gateway/protos';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cutWhenStalled } from './stall.js';
import { observeStreamOverhead, recordLeftStream } from './telemetry.js';

// A streamed call relayed from the chat service to its caller as server-sent events, in the
// route's dialect: chat's `data:` chunks ending in [DONE], or the Responses API's typed events.

/** What every stream message carries: on the last one, what the call was metered at. */
export interface MeteredMessage {
  usage: MeteredUsage__Output | null;
}

/** How a route's dialect writes its stream. */
export interface SseDialect<M extends MeteredMessage> {
  /** One message's frames as one buffer (one write), or undefined when it has none. */
  frames(message: M): Buffer | undefined;
  /** Written when the stream ends well, if anything. */
  done: Buffer | undefined;
  /** The frame that ends a stream that failed after it started. */
  failure(error: GatewayError): Buffer;
  /** Extra response headers, read off the first message. */
  headers?(first: M | null): Record<string, string>;
  /** Written after `intervalMs` without another write (Anthropic's `ping`), so idle proxies keep the stream. */
  keepAlive?: { intervalMs: number; frame: Buffer };
}

/** A stream that failed in transport before its first message: safe to open again. */
export class TransportFailure extends Error {
  constructor(readonly error: GatewayError) {
    super('the chat service could not be reached', { cause: error });
  }
}

/** The first message, or null when the stream ended without one; failures rejected as gateway errors. */
function firstMessage<M>(stream: ClientReadableStream<M>, request: FastifyRequest, reply: FastifyReply): Promise<M | null> {
  return new Promise<M | null>((resolve, reject) => {
    const onData = (message: M) => {
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
}

/**
 * Relays a stream as SSE. Until the first message nothing is written, so a failure still
 * becomes an HTTP status; after it, a failure is the dialect's failure frame and the end of the
 * stream. A caller that goes away cancels the call, and the chat service aborts the upstream.
 */
export async function relay<M extends MeteredMessage>(
  stream: ClientReadableStream<M>,
  request: FastifyRequest,
  reply: FastifyReply,
  stallTimeoutMs: number,
  dialect: SseDialect<M>,
): Promise<FastifyReply> {
  // Leading metadata, before the first message: the upstream's time to its first chunk.
  let upstreamMs: number | undefined;
  stream.once('metadata', (metadata: Metadata) => {
    upstreamMs = upstreamMsOf(metadata);
  });
  const first = await firstMessage(stream, request, reply);

  reply.hijack();
  request.streamStarted = true;
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
    ...dialect.headers?.(first),
  });
  cutWhenStalled(res, stallTimeoutMs, () =>
    request.log.warn({ requestId: request.id, stallTimeoutMs }, 'stream cut: its caller read nothing for the stall timeout'),
  );
  if (first === null) {
    res.end(dialect.done);
    return reply;
  }
  if (first.usage) request.meteredUsage = first.usage;
  const opening = dialect.frames(first);
  if (opening) res.write(opening);
  if (upstreamMs !== undefined) observeStreamOverhead(request, reply, upstreamMs);
  follow(stream, request, reply, dialect);
  stream.resume();
  return reply;
}

/** The rest of the stream after its first message, with back-pressure from the caller. */
function follow<M extends MeteredMessage>(
  stream: ClientReadableStream<M>,
  request: FastifyRequest,
  reply: FastifyReply,
  dialect: SseDialect<M>,
): void {
  const res = reply.raw;
  // Once the caller is gone or the response has ended, nothing more is written.
  const open = () => !res.writableEnded && !res.destroyed;
  const quiet = keepAlive(res, dialect.keepAlive, open);
  res.once('close', () => {
    quiet?.stop();
    if (res.writableFinished) return;
    stream.cancel();
    recordLeftStream(request, reply);
  });
  stream.on('data', (message: M) => {
    // The last message carries what the call was metered at, for the access line.
    if (message.usage) request.meteredUsage = message.usage;
    const frames = dialect.frames(message);
    if (!frames || !open()) return;
    quiet?.wrote();
    if (!res.write(frames)) {
      stream.pause();
      res.once('drain', () => stream.resume());
    }
  });
  stream.on('end', () => {
    if (open()) res.end(dialect.done);
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
    res.end(dialect.failure(gatewayError));
  });
}

/** Writes the keep-alive frame after each quiet interval; `wrote` restarts the interval. */
function keepAlive(
  res: FastifyReply['raw'],
  options: SseDialect<MeteredMessage>['keepAlive'],
  open: () => boolean,
): { wrote(): void; stop(): void } | undefined {
  if (!options) return undefined;
  const timer = setTimeout(function ping() {
    if (!open()) return;
    res.write(options.frame);
    timer.refresh();
  }, options.intervalMs);
  timer.unref();
  return { wrote: () => timer.refresh(), stop: () => clearTimeout(timer) };
}

/** Opens a stream and relays it; a connection that failed before the first message (a replica gone) is tried once more. */
export function relayWithRetry<M extends MeteredMessage>(
  open: () => ClientReadableStream<M>,
  request: FastifyRequest,
  reply: FastifyReply,
  stallTimeoutMs: number,
  dialect: SseDialect<M>,
): Promise<FastifyReply> {
  return relay(open(), request, reply, stallTimeoutMs, dialect).catch((error: unknown) => {
    if (!(error instanceof TransportFailure)) throw error;
    return relay(open(), request, reply, stallTimeoutMs, dialect).catch((again: unknown) => {
      throw again instanceof TransportFailure ? again.error : again;
    });
  });
}
