import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorCode, GatewayError, toOpenAIError } from '@gateway/errors';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { nodeHttp } from '@gateway/runtime';
import { sendError } from './errors.js';

// Answers the edge gives before any route runs, in the same OpenAI shape as the rest: Node's
// HTTP parser refusing a request (framing, bad bytes, headers too large, too slow), the router
// refusing a path (bad percent-encoding, a path parameter longer than any id), and an Expect
// header the server does not meet.

/** A status line, headers and the OpenAI error body, for places that write raw bytes and close. */
function rawAnswer(error: GatewayError, extra = ''): string {
  const body = JSON.stringify(toOpenAIError(error));
  const status = error.spec.http;
  return `HTTP/1.1 ${status} ${nodeHttp.STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`;
}

const PARSER_ANSWERS: Readonly<Record<string, [ErrorCode, string]>> = {
  HPE_HEADER_OVERFLOW: ['request_header_fields_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request was not received in time.'],
  ERR_HTTP_HEADERS_TIMEOUT: ['request_timeout', 'The request headers were not received in time.'],
  HPE_URI_TOO_LONG: ['uri_too_long', 'The request target is too long.'],
};

/** Node's `clientError`: a request the HTTP parser refused, answered with a shaped body and closed. */
export function onClientError(error: Error & { code?: string }, socket: Duplex): void {
  // Nothing to answer on a connection that is gone or already has part of a response (a request
  // whose body turned out malformed may have one in the making, not yet sent).
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy(error);
    return;
  }
  const [code, message] = Object.hasOwn(PARSER_ANSWERS, error.code ?? '')
    ? (PARSER_ANSWERS[error.code ?? ''] as [ErrorCode, string])
    : (['bad_request', 'The request is not valid HTTP/1.1.'] as const);
  socket.end(rawAnswer(new GatewayError(code, { message })));
}

/** Fastify's `frameworkErrors`: the router could not take the path. */
export function onFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // No id is that long, so there is nothing at that path.
    sendError(reply, new GatewayError('not_found', { message: 'No such resource: the id in the path is longer than any id here.' }));
    return;
  }
  sendError(reply, new GatewayError('invalid_request', { message: 'The request path is not a valid URL (bad percent-encoding).' }));
}

/** `checkExpectation`: an Expect other than 100-continue. */
export function onUnmetExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const error = new GatewayError('expectation_failed');
  const body = JSON.stringify(toOpenAIError(error));
  response.writeHead(error.spec.http, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.end(body);
}

/** A CONNECT request: the gateway is no proxy. */
export function onConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.end(rawAnswer(new GatewayError('method_not_allowed', { message: 'CONNECT is not supported: this is an API, not a proxy.' })));
}
