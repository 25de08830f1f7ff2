import { errorCatalog, type ErrorCode, type ErrorSpec } from './catalog.js';

export interface GatewayErrorOptions {
  /** Overrides the catalog's message; must never contain secrets or internal addresses. */
  message?: string;
  /** The request field at fault, reported as OpenAI's `error.param`. */
  param?: string;
  /** Seconds a client should wait before retrying (sent as Retry-After). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** The one error type of the gateway: a stable catalog code plus what the caller may be told. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: GatewayErrorOptions = {}) {
    super(options.message ?? errorCatalog[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get spec(): ErrorSpec {
    return errorCatalog[this.code];
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/** The OpenAI-shaped body every error response carries. */
export interface OpenAIErrorBody {
  error: {
    message: string;
    type: string;
    code: string;
    param: string | null;
  };
}

export function toOpenAIError(error: GatewayError): OpenAIErrorBody {
  return {
    error: {
      message: error.message,
      type: error.spec.type,
      code: error.code,
      param: error.param ?? null,
    },
  };
}

/** Any thrown value as a GatewayError; unknown failures become `internal_error` with no internals shown. */
export function asGatewayError(value: unknown): GatewayError {
  if (value instanceof GatewayError) return value;
  return new GatewayError('internal_error', { cause: value });
}
