import { GatewayError } from '@gateway/errors';

export type FailureKind = 'connect' | 'timeout' | 'status' | 'protocol';

/** Why one attempt at an upstream failed, and whether another deployment may do better. */
export class UpstreamFailure extends Error {
  override readonly name = 'UpstreamFailure';
  readonly kind: FailureKind;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The upstream's own explanation, only for errors the caller caused (4xx). */
  readonly callerMessage: string | undefined;

  constructor(kind: FailureKind, options: { status?: number; retryAfterSeconds?: number; callerMessage?: string; cause?: unknown } = {}) {
    super(options.status === undefined ? `upstream ${kind} failure` : `upstream answered ${options.status}`, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.callerMessage = options.callerMessage;
  }

  /** Connect errors, timeouts, 429, 5xx and credential errors are worth another deployment. */
  get retryable(): boolean {
    if (this.kind !== 'status') return true;
    const status = this.status ?? 500;
    return status === 429 || status >= 500 || status === 401 || status === 403 || status === 408;
  }

  /** What the caller is told: never the provider, its address or its credential. */
  toGatewayError(): GatewayError {
    if (this.kind === 'timeout') return new GatewayError('upstream_timeout', { cause: this });
    if (this.kind === 'status' && this.status === 429) {
      return new GatewayError('upstream_rate_limited', { retryAfterSeconds: this.retryAfterSeconds, cause: this });
    }
    if (this.kind === 'status' && this.status !== undefined && this.status >= 400 && this.status < 500 && !this.retryable) {
      return new GatewayError('upstream_bad_request', {
        message: this.callerMessage ? `The upstream rejected the request: ${this.callerMessage}` : undefined,
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

/** An upstream's error message, cut short and cleaned of anything that looks like a URL or key. */
export function sanitizeUpstreamMessage(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  const message = typeof error === 'string' ? error : (error as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  return message
    .replace(/https?:\/\/\S+/g, '[url]')
    .replace(/\b(sk|key|Bearer)[-_ ][A-Za-z0-9._-]{8,}/g, '[redacted]')
    .slice(0, 500);
}
