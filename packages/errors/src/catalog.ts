import { Status as GrpcStatus } from '@grpc/grpc-js/build/src/constants.js';

/** One entry of the error catalog: how a stable code travels over gRPC and leaves over HTTP. */
export interface ErrorSpec {
  /** gRPC status used between services. */
  readonly grpc: GrpcStatus;
  /** HTTP status the edge answers with. */
  readonly http: number;
  /** OpenAI-style `error.type`. */
  readonly type: string;
  /** Default human-readable message. */
  readonly message: string;
}

/**
 * Every error the gateway can answer with, by stable code. The code is what clients and tests
 * match on; messages may be refined per occurrence but never carry secrets or internals.
 */
export const errorCatalog = {
  invalid_api_key: {
    grpc: GrpcStatus.UNAUTHENTICATED,
    http: 401,
    type: 'auth_error',
    message: 'Invalid API key. Send a valid key as "Authorization: Bearer sk-...".',
  },
  model_not_allowed: {
    grpc: GrpcStatus.PERMISSION_DENIED,
    http: 401,
    type: 'auth_error',
    message: 'This API key cannot call the requested model.',
  },
  invalid_admin_token: {
    grpc: GrpcStatus.UNAUTHENTICATED,
    http: 401,
    type: 'auth_error',
    message: 'Invalid admin token.',
  },
  invalid_request: {
    grpc: GrpcStatus.INVALID_ARGUMENT,
    http: 422,
    type: 'invalid_request_error',
    message: 'The request is not valid.',
  },
  invalid_json: {
    grpc: GrpcStatus.INVALID_ARGUMENT,
    http: 400,
    type: 'invalid_request_error',
    message: 'The request body is not valid JSON.',
  },
  unsupported_media_type: {
    grpc: GrpcStatus.INVALID_ARGUMENT,
    http: 415,
    type: 'invalid_request_error',
    message: 'Unsupported Content-Type.',
  },
  request_too_large: {
    grpc: GrpcStatus.RESOURCE_EXHAUSTED,
    http: 413,
    type: 'invalid_request_error',
    message: 'The request body is too large.',
  },
  bad_request: {
    grpc: GrpcStatus.INVALID_ARGUMENT,
    http: 400,
    type: 'invalid_request_error',
    message: 'The request is not valid HTTP/1.1.',
  },
  method_not_allowed: {
    grpc: GrpcStatus.UNIMPLEMENTED,
    http: 405,
    type: 'invalid_request_error',
    message: 'This method is not allowed on this path (Allow lists those that are).',
  },
  request_timeout: {
    grpc: GrpcStatus.DEADLINE_EXCEEDED,
    http: 408,
    type: 'invalid_request_error',
    message: 'The request was not received in time.',
  },
  uri_too_long: {
    grpc: GrpcStatus.INVALID_ARGUMENT,
    http: 414,
    type: 'invalid_request_error',
    message: 'The request target is too long.',
  },
  range_not_satisfiable: {
    grpc: GrpcStatus.OUT_OF_RANGE,
    http: 416,
    type: 'invalid_request_error',
    message: 'The requested range lies past the end of the clip (Content-Range gives its length).',
  },
  expectation_failed: {
    grpc: GrpcStatus.INVALID_ARGUMENT,
    http: 417,
    type: 'invalid_request_error',
    message: 'Only "Expect: 100-continue" is supported.',
  },
  request_header_fields_too_large: {
    grpc: GrpcStatus.INVALID_ARGUMENT,
    http: 431,
    type: 'invalid_request_error',
    message: 'The request headers are too large.',
  },
  model_not_found: {
    grpc: GrpcStatus.NOT_FOUND,
    http: 401,
    type: 'auth_error',
    message: 'The requested model does not exist or this API key cannot call it.',
  },
  budget_exceeded: {
    grpc: GrpcStatus.FAILED_PRECONDITION,
    http: 422,
    type: 'budget_exceeded',
    message: 'This API key has no budget left for this request.',
  },
  rate_limit_exceeded: {
    grpc: GrpcStatus.RESOURCE_EXHAUSTED,
    http: 429,
    type: 'rate_limit_error',
    message: 'Rate limit reached for this API key.',
  },
  too_many_downloads: {
    grpc: GrpcStatus.RESOURCE_EXHAUSTED,
    http: 429,
    type: 'rate_limit_error',
    message: 'This API key has as many clip downloads running as it may; retry when one ends.',
  },
  upstream_rate_limited: {
    grpc: GrpcStatus.RESOURCE_EXHAUSTED,
    http: 429,
    type: 'rate_limit_error',
    message: 'The upstream provider is rate limiting requests; retry later.',
  },
  not_found: {
    grpc: GrpcStatus.NOT_FOUND,
    http: 404,
    type: 'invalid_request_error',
    message: 'Not found.',
  },
  key_not_found: {
    grpc: GrpcStatus.NOT_FOUND,
    http: 404,
    type: 'invalid_request_error',
    message: 'No key with that id.',
  },
  key_revoked: {
    grpc: GrpcStatus.FAILED_PRECONDITION,
    http: 409,
    type: 'invalid_request_error',
    message: 'This key is revoked and cannot change; create a new one.',
  },
  team_not_found: {
    grpc: GrpcStatus.NOT_FOUND,
    http: 404,
    type: 'invalid_request_error',
    message: 'No team with that id.',
  },
  team_not_empty: {
    grpc: GrpcStatus.FAILED_PRECONDITION,
    http: 409,
    type: 'invalid_request_error',
    message: 'The team still has keys that are not revoked; move or revoke them first.',
  },
  video_not_found: {
    grpc: GrpcStatus.NOT_FOUND,
    http: 404,
    type: 'invalid_request_error',
    message: 'No video job with that id.',
  },
  response_not_found: {
    // Absent, expired or another key's: the caller cannot tell which (as OpenAI answers).
    grpc: GrpcStatus.NOT_FOUND,
    http: 404,
    type: 'invalid_request_error',
    message: 'No response found with that id.',
  },
  video_not_ready: {
    grpc: GrpcStatus.FAILED_PRECONDITION,
    http: 409,
    type: 'invalid_request_error',
    message: 'The video job has not completed; poll it until status is "completed".',
  },
  upstream_bad_request: {
    grpc: GrpcStatus.INVALID_ARGUMENT,
    http: 400,
    type: 'invalid_request_error',
    message: 'The upstream rejected the request.',
  },
  upstream_error: {
    grpc: GrpcStatus.UNAVAILABLE,
    http: 502,
    type: 'upstream_error',
    message: 'The upstream provider returned an error.',
  },
  no_healthy_upstream: {
    grpc: GrpcStatus.UNAVAILABLE,
    http: 503,
    type: 'service_unavailable',
    message: 'No healthy upstream can serve this model right now.',
  },
  service_unavailable: {
    grpc: GrpcStatus.UNAVAILABLE,
    http: 503,
    type: 'service_unavailable',
    message: 'The service is temporarily unavailable.',
  },
  upstream_timeout: {
    grpc: GrpcStatus.DEADLINE_EXCEEDED,
    http: 504,
    type: 'timeout_error',
    message: 'The upstream provider timed out.',
  },
  not_implemented: {
    grpc: GrpcStatus.UNIMPLEMENTED,
    http: 501,
    type: 'invalid_request_error',
    message: 'This operation is not available in this version of the gateway.',
  },
  request_cancelled: {
    // The caller left before the answer (its connection closed, or the hop before cancelled):
    // 499 as proxies log it; nobody is left to read the body, but logs and metrics name it.
    grpc: GrpcStatus.CANCELLED,
    http: 499,
    type: 'request_cancelled',
    message: 'The caller cancelled the request before it was answered.',
  },
  internal_error: {
    grpc: GrpcStatus.INTERNAL,
    http: 500,
    type: 'internal_error',
    message: 'Internal error.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof errorCatalog;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorCatalog, value);
}

/** The code used for a gRPC status that arrived without a gateway code (e.g. a transport failure). */
export function codeForGrpcStatus(status: number): ErrorCode {
  switch (status) {
    case GrpcStatus.UNAUTHENTICATED:
      return 'invalid_api_key';
    case GrpcStatus.PERMISSION_DENIED:
      return 'model_not_allowed';
    case GrpcStatus.INVALID_ARGUMENT:
      return 'invalid_request';
    case GrpcStatus.NOT_FOUND:
      return 'not_found';
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 'rate_limit_exceeded';
    case GrpcStatus.UNAVAILABLE:
      return 'service_unavailable';
    case GrpcStatus.DEADLINE_EXCEEDED:
      return 'upstream_timeout';
    case GrpcStatus.UNIMPLEMENTED:
      return 'not_implemented';
    case GrpcStatus.CANCELLED:
      return 'request_cancelled';
    default:
      return 'internal_error';
  }
}
