import { GatewayError, asGatewayError, toAnthropicError, toOpenAIError } from '@gateway/errors';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { RouteMethods } from './route-methods.js';

// Every error leaves the edge with a stable code, in its route's dialect: OpenAI's shape, or
// Anthropic's on the Messages API's routes. Fastify's own errors (bad JSON, too large, wrong
// content type, schema validation) are translated here.

function fromFastify(error: FastifyError): GatewayError {
  if (error.validation && error.validation.length > 0) {
    const first = error.validation[0];
    const params = (first?.params ?? {}) as { missingProperty?: string; additionalProperty?: string };
    const missing = first?.keyword === 'required' ? params.missingProperty : undefined;
    const extra = first?.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
    const path = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const field = missing ?? extra;
    const param = field ? (path ? `${path}.${field}` : field) : path || undefined;
    const reason = missing ? 'is required' : extra ? 'is not a known field' : (first?.message ?? 'is not valid');
    const message = param ? `Invalid value for '${param}': ${reason}.` : `Invalid request: ${reason}.`;
    return new GatewayError('invalid_request', { message, param });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError('request_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('unsupported_media_type', { message: 'Unsupported Content-Type; send application/json.' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new GatewayError('invalid_json');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.statusCode === 400) return new GatewayError('invalid_json');
  if (error.statusCode === 413) return new GatewayError('request_too_large');
  if (error.statusCode === 415) return new GatewayError('unsupported_media_type');
  return asGatewayError(error);
}

/** The innermost cause's message: what actually went wrong, said once. */
function causeText(error: Error): string {
  let inner: unknown = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner instanceof Error ? inner.message : String(inner);
}

const MESSAGES_PATH = /^\/v1\/messages(?:[/?]|$)/;
const MODELS_PATH = /^\/v1\/models(?:[/?]|$)/;

/**
 * Whether a request speaks Anthropic's dialect: the Messages API's routes, and the model list
 * asked with `anthropic-version` (what Anthropic's SDKs send on every call).
 */
export function speaksAnthropic(request: FastifyRequest): boolean {
  const { url } = request;
  return MESSAGES_PATH.test(url) || (MODELS_PATH.test(url) && request.headers['anthropic-version'] !== undefined);
}

export function sendError(reply: FastifyReply, error: GatewayError): FastifyReply {
  reply.request.errorCode = error.code;
  const anthropic = speaksAnthropic(reply.request) ? toAnthropicError(error) : undefined;
  const status = anthropic?.status ?? error.spec.http;
  // Every 429 and 503 says when to try again: its own figure, or a second (an upstream's 429 that
  // gave none, an instance shutting down, a service that could not be reached on this call).
  const retryAfter = error.retryAfterSeconds ?? (status === 503 || status === 429 ? 1 : undefined);
  if (retryAfter !== undefined) reply.header('retry-after', String(Math.max(0, Math.ceil(retryAfter))));
  return reply
    .code(status)
    .type('application/json')
    .send(anthropic ? anthropic.body : toOpenAIError(error));
}

/**
 * The error and not-found handlers. Wrapped by fastify-plugin so they apply to the scope that
 * registers it (the edge's), not only to this plugin's own. Register it before any route: the
 * not-found handler knows the routes registered after it.
 */
export const errorHandling = fp(
  async (app) => {
    const { routerOptions } = app.initialConfig;
    const routeMethods = new RouteMethods({
      ignoreTrailingSlash: routerOptions?.ignoreTrailingSlash ?? app.initialConfig.ignoreTrailingSlash ?? false,
      maxParamLength: routerOptions?.maxParamLength ?? app.initialConfig.maxParamLength ?? 100,
    });
    // Every route of this scope and the plugins under it, the HEAD Fastify adds for each GET too.
    app.addHook('onRoute', (route) => routeMethods.add(route.url, route.method));

    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const gatewayError = error instanceof GatewayError ? error : fromFastify(error);
      // The access line names the code of every failed request. Only the gateway's own faults
      // get a line of their own: a bug with its stack, an internal service out of reach with its
      // reason. Upstream failures were logged where they happened, once each, without a stack.
      if (gatewayError.code === 'internal_error') {
        request.log.error(
          { err: error, code: gatewayError.code, requestId: request.id, traceId: request.telemetry?.traceId },
          'request failed',
        );
      } else if (gatewayError.code === 'service_unavailable' && !request.url.startsWith('/health/')) {
        request.log.error(
          { code: gatewayError.code, reason: causeText(gatewayError), requestId: request.id, traceId: request.telemetry?.traceId },
          'an internal service could not be reached',
        );
      }
      return sendError(reply, gatewayError);
    });
    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '';
      // A path some route serves, asked with another method: 405 naming those that work. Decided
      // by path and method alone, before any authentication (the /v1 key check belongs to the
      // routes), and only for routes that exist: with the admin API off, /admin paths stay 404.
      // OPTIONS is no exception: no route serves it (no CORS here, the callers are SDKs and
      // servers), so it is one more method the path does not take, 405 with the same Allow.
      const allowed = routeMethods.allowedAt(request.url);
      if (allowed.length > 0) {
        reply.header('allow', allowed.join(', '));
        return sendError(
          reply,
          new GatewayError('method_not_allowed', {
            message: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`,
          }),
        );
      }
      return sendError(reply, new GatewayError('not_found', { message: `Unknown route: ${request.method} ${path}` }));
    });
  },
  { name: 'edge-error-handling', fastify: '5.x' },
);
