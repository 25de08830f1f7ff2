import type { DeploymentConfig, Env } from '@gateway/config';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import type { JsonObject } from '../domain/request.js';
import { sseData } from './sse.js';
import { UpstreamFailure, parseRetryAfter, sanitizeUpstreamMessage } from './failure.js';

// HTTP to the upstreams: one keep-alive pool per origin, reused by every call, with the
// credential read from the deployment's variable at call time and never logged.

export interface UpstreamCall {
  deployment: DeploymentConfig;
  /** Appended to the deployment's api_base path, e.g. "/chat/completions". */
  path: string;
  body: JsonObject;
  /** Time to response headers, and the longest pause between stream chunks. */
  timeoutMs: number;
  signal: AbortSignal;
}

export interface UpstreamStream {
  /** The JSON payload of each `data:` event, until `[DONE]`. */
  events: AsyncGenerator<string>;
  /** Stops reading and releases the connection. */
  close(): void;
}

const MAX_ERROR_BODY_BYTES = 64 * 1024;

export class UpstreamClient {
  readonly #pools = new Map<string, Pool>();

  constructor(private readonly env: Env) {}

  #pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 256, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000 });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  async #send(call: UpstreamCall): Promise<Dispatcher.ResponseData> {
    const base = new URL(call.deployment.apiBase);
    const credential = this.env[call.deployment.apiKeyEnv] ?? '';
    let response: Dispatcher.ResponseData;
    // undici's own timers are coarse (about a second); the wait for headers is timed exactly here,
    // and bodyTimeout bounds the pauses of a stream.
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    call.signal.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, call.timeoutMs);
    try {
      response = await this.#pool(base.origin).request({
        method: 'POST',
        path: `${base.pathname.replace(/\/+$/, '')}${call.path}`,
        headers: {
          'content-type': 'application/json',
          accept: call.body.stream === true ? 'text/event-stream' : 'application/json',
          authorization: `Bearer ${credential}`,
        },
        body: JSON.stringify(call.body),
        signal: controller.signal,
        headersTimeout: call.timeoutMs + 1000,
        bodyTimeout: call.timeoutMs,
      });
    } catch (error) {
      throw timedOut ? new UpstreamFailure('timeout', { cause: error }) : failureFrom(error);
    } finally {
      clearTimeout(timer);
    }
    if (response.statusCode >= 400) {
      const text = await readLimited(response.body).catch(() => '');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      throw new UpstreamFailure('status', {
        status: response.statusCode,
        retryAfterSeconds: parseRetryAfter(response.headers['retry-after']),
        callerMessage: sanitizeUpstreamMessage(parsed),
      });
    }
    return response;
  }

  /** A non-streamed call: the parsed JSON response. */
  async complete(call: UpstreamCall): Promise<JsonObject> {
    const response = await this.#send(call);
    try {
      const body = (await response.body.json()) as unknown;
      if (typeof body !== 'object' || body === null) throw new UpstreamFailure('protocol');
      return body as JsonObject;
    } catch (error) {
      throw error instanceof UpstreamFailure ? error : failureFrom(error);
    }
  }

  /** A streamed call, once the upstream has answered 200. */
  async stream(call: UpstreamCall): Promise<UpstreamStream> {
    const response = await this.#send(call);
    const body = response.body;
    async function* events(): AsyncGenerator<string> {
      try {
        for await (const data of sseData(body)) {
          if (data === '[DONE]') return;
          yield data;
        }
      } catch (error) {
        throw failureFrom(error);
      }
      // The body ended without [DONE]: the stream was cut.
      throw new UpstreamFailure('protocol');
    }
    return { events: events(), close: () => body.destroy() };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.close().catch(() => undefined)));
    this.#pools.clear();
  }
}

function failureFrom(error: unknown): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError
    || error instanceof undiciErrors.ConnectTimeoutError) {
    return new UpstreamFailure('timeout', { cause: error });
  }
  if (error instanceof undiciErrors.RequestAbortedError || (error instanceof Error && error.name === 'AbortError')) {
    return new UpstreamFailure('connect', { cause: error });
  }
  return new UpstreamFailure('connect', { cause: error });
}

async function readLimited(body: Dispatcher.ResponseData['body']): Promise<string> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_ERROR_BODY_BYTES) {
      body.destroy();
      break;
    }
    parts.push(buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}
