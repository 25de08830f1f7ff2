import type { DeploymentConfig, Env } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { Pool, type Dispatcher } from 'undici';

// JSON over HTTP to the video providers' task APIs: one keep-alive pool per origin, the
// credential read from the deployment's variable per call and never logged.

/** One failed call to a provider; `status` is the HTTP status when there was one. */
export class ProviderCallError extends Error {
  override readonly name = 'ProviderCallError';
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The provider's reason, cleaned of URLs, for errors the caller caused. */
  readonly reason: string | undefined;

  constructor(message: string, options: { status?: number; retryAfterSeconds?: number; reason?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.reason = options.reason;
  }

  /** What the caller of POST /v1/videos is told when the provider refused to create the task. */
  toGatewayError(): GatewayError {
    if (this.status === 429) return new GatewayError('upstream_rate_limited', { retryAfterSeconds: this.retryAfterSeconds, cause: this });
    if (this.status === undefined) return new GatewayError('upstream_error', { cause: this });
    if (this.status >= 400 && this.status < 500 && this.status !== 401 && this.status !== 403) {
      return new GatewayError('upstream_bad_request', { message: this.reason ? `The provider rejected the request: ${this.reason}` : undefined, cause: this });
    }
    return new GatewayError('upstream_error', { cause: this });
  }
}

function reasonOf(body: unknown): string | undefined {
  const error = (body as { error?: unknown; base_resp?: { status_msg?: unknown } } | null);
  const inner = error?.error;
  const message = typeof inner === 'string' ? inner : (inner as { message?: unknown } | undefined)?.message ?? error?.base_resp?.status_msg;
  return typeof message === 'string' ? message.replace(/https?:\/\/\S+/g, '[url]').slice(0, 500) : undefined;
}

export class ProviderHttp {
  readonly #pools = new Map<string, Pool>();

  constructor(private readonly env: Env, private readonly timeoutMs: number) {}

  async call(deployment: DeploymentConfig, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    const base = new URL(deployment.apiBase);
    let pool = this.#pools.get(base.origin);
    if (!pool) {
      pool = new Pool(base.origin, { connections: 32 });
      this.#pools.set(base.origin, pool);
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await pool.request({
        method,
        path: `${base.pathname.replace(/\/+$/, '')}${path}`,
        headers: {
          authorization: `Bearer ${this.env[deployment.apiKeyEnv] ?? ''}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new ProviderCallError('provider unreachable', { cause: error });
    }
    const text = await response.body.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.statusCode >= 400) {
      const retryAfter = Number(response.headers['retry-after']);
      throw new ProviderCallError(`provider answered ${response.statusCode}`, {
        status: response.statusCode,
        retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
        reason: reasonOf(parsed),
      });
    }
    if (parsed === undefined && method !== 'DELETE') throw new ProviderCallError('provider answered without JSON', { status: response.statusCode });
    return parsed;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.close().catch(() => undefined)));
  }
}
