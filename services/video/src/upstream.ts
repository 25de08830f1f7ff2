import type { DeploymentConfig, Env } from '@gateway/config';
import { abortedCallError } from '@gateway/grpc';
import { Pool, UpstreamFailure, cleanUpstreamText, parseRetryAfter, sanitizeUpstreamMessage } from '@gateway/upstream';
import type { Dispatcher } from 'undici';

// JSON over HTTP to the video providers' task APIs: one keep-alive pool per origin, the
// credential read from the deployment's variable per call and never logged. Every failure is
// the kit's UpstreamFailure, so the router and the retry rule treat it as chat's.

/** A provider's reason for refusing a request: OpenAI-shaped, or MiniMax's `base_resp.status_msg`; cleaned. */
function reasonOf(body: unknown): string | undefined {
  const minimax = (body as { base_resp?: { status_msg?: unknown } } | null)?.base_resp?.status_msg;
  return sanitizeUpstreamMessage(body) ?? (typeof minimax === 'string' ? cleanUpstreamText(minimax) : undefined);
}

/** Failures name the provider to the caller ("The provider rejected the request: …"). */
const SUBJECT = 'provider';

export class ProviderHttp {
  readonly #pools: Map<string, Pool>;
  readonly #signal: AbortSignal | undefined;

  /** `timeoutMs` (video.timeout_ms) applies where the deployment sets no `timeout_ms` of its own. */
  constructor(
    private readonly env: Env,
    private readonly timeoutMs: number,
    shared?: { pools: Map<string, Pool>; signal: AbortSignal },
  ) {
    this.#pools = shared?.pools ?? new Map();
    this.#signal = shared?.signal;
  }

  /**
   * The same pools, with every call also ended when `signal` aborts (a gRPC call's CallInfo.signal:
   * its caller left or its deadline passed), failing with that reason as a GatewayError.
   */
  withSignal(signal: AbortSignal): ProviderHttp {
    return new ProviderHttp(this.env, this.timeoutMs, { pools: this.#pools, signal });
  }

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
        signal: this.#timeout(deployment),
      });
    } catch (error) {
      if (this.#signal?.aborted) throw abortedCallError(error, this.#signal);
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new UpstreamFailure(timedOut ? 'timeout' : 'connect', { subject: SUBJECT, cause: error });
    }
    const text = await response.body.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.statusCode >= 400) {
      throw new UpstreamFailure('status', {
        status: response.statusCode,
        retryAfterSeconds: parseRetryAfter(response.headers['retry-after']),
        callerMessage: reasonOf(parsed),
        subject: SUBJECT,
      });
    }
    if (parsed === undefined && method !== 'DELETE') throw new UpstreamFailure('protocol', { subject: SUBJECT });
    return parsed;
  }

  #timeout(deployment: DeploymentConfig): AbortSignal {
    const timeout = AbortSignal.timeout(deployment.timeoutMs ?? this.timeoutMs);
    return this.#signal ? AbortSignal.any([timeout, this.#signal]) : timeout;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.close().catch(() => undefined)));
  }
}
