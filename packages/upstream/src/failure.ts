import { GatewayError } from '@gateway/errors';

/** How an attempt failed: no connection, no answer in time, an HTTP error status, or an answer the gateway cannot read. */
export type FailureKind = 'connect' | 'timeout' | 'status' | 'protocol';

/** Stable codes, one per kind, for logs and tests. */
export type UpstreamFailureCode = `upstream_${FailureKind}`;

/**
 * The one retry rule, for every mode: anything but an HTTP status (connect errors, timeouts,
 * unreadable answers) may go better elsewhere; of the statuses, 429 and 5xx are the upstream's
 * own trouble, 401/403 the gateway's credential for that deployment, 408 the upstream's timeout.
 * Any other 4xx is about the request, so another deployment would refuse it alike.
 */
export function isRetryable(kind: FailureKind, status: number | undefined): boolean {
  if (kind !== 'status') return true;
  const code = status ?? 500;
  return code === 429 || code >= 500 || code === 401 || code === 403 || code === 408;
}

export interface UpstreamFailureOptions {
  status?: number;
  retryAfterSeconds?: number;
  /** The upstream's own explanation, only shown for errors the caller caused (non-retryable 4xx). */
  callerMessage?: string;
  /** Who the caller is told rejected a bad request ("upstream" for chat, "provider" for video). */
  subject?: string;
  cause?: unknown;
}

/** Why one attempt at an upstream failed, and whether another deployment may do better. */
export class UpstreamFailure extends Error {
  override readonly name = 'UpstreamFailure';
  readonly kind: FailureKind;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly callerMessage: string | undefined;
  readonly subject: string;

  constructor(kind: FailureKind, options: UpstreamFailureOptions = {}) {
    super(options.status === undefined ? `upstream ${kind} failure` : `upstream answered ${options.status}`, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.callerMessage = options.callerMessage;
    this.subject = options.subject ?? 'upstream';
  }

  get code(): UpstreamFailureCode {
    return `upstream_${this.kind}`;
  }

  get retryable(): boolean {
    return isRetryable(this.kind, this.status);
  }

  /** What the caller is told: never the provider, its address or its credential. */
  toGatewayError(): GatewayError {
    if (this.kind === 'timeout') return new GatewayError('upstream_timeout', { cause: this });
    if (this.kind === 'status' && this.status === 429) {
      return new GatewayError('upstream_rate_limited', { retryAfterSeconds: this.retryAfterSeconds, cause: this });
    }
    if (this.kind === 'status' && this.status !== undefined && this.status >= 400 && this.status < 500 && !this.retryable) {
      return new GatewayError('upstream_bad_request', {
        message: this.callerMessage ? `The ${this.subject} rejected the request: ${this.callerMessage}` : undefined,
        cause: this,
      });
    }
    return new GatewayError('upstream_error', { cause: this });
  }
}

/** Seconds from a Retry-After header (delta seconds or an HTTP date). */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** An upstream's words, cut short and cleaned of anything that looks like a URL or key. */
export function cleanUpstreamText(message: string): string | undefined {
  if (message.trim() === '') return undefined;
  return message
    .replace(/https?:\/\/\S+/g, '[url]')
    .replace(/\b(sk|key|Bearer)[-_ ][A-Za-z0-9._-]{8,}/g, '[redacted]')
    .slice(0, 500);
}

/** The message of an OpenAI-shaped error body (`{"error": "…"}` or `{"error": {"message": "…"}}`), cleaned. */
export function sanitizeUpstreamMessage(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  const message = typeof error === 'string' ? error : (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? cleanUpstreamText(message) : undefined;
}
