import type { DeploymentConfig, Env } from '@gateway/config';
import type { Dispatcher } from 'undici';
import type { JsonObject } from '../domain/request.js';
import { sseBatches } from './sse.js';
import { Pool, UpstreamFailure, parseRetryAfter, sanitizeUpstreamMessage, undiciErrors } from '@gateway/upstream';

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
  /** The JSON payloads of the `data:` events, in the batches they arrived in, until `[DONE]`. */
  batches: AsyncGenerator<string[]>;
  /** Stops reading and releases the connection. */
  close(): void;
}

const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Shared abort reasons: an Error per call (or a DOMException) costs a stack trace each time. */
const TIMED_OUT = new Error('upstream timed out');
const CALLER_GONE = new Error('the caller went away');

/** Timeouts shorter than this are timed exactly; longer ones by undici's coarse timers. */
const PRECISE_TIMEOUT_BELOW_MS = 30_000;

interface Target {
  origin: string;
  basePath: string;
}

export class UpstreamClient {
  readonly #pools = new Map<string, Pool>();
  readonly #targets = new WeakMap<DeploymentConfig, Target>();

  constructor(private readonly env: Env) {}

  #pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 256, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000 });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  #target(deployment: DeploymentConfig): Target {
    let target = this.#targets.get(deployment);
    if (!target) {
      const base = new URL(deployment.apiBase);
      target = { origin: base.origin, basePath: base.pathname.replace(/\/+$/, '') };
      this.#targets.set(deployment, target);
    }
    return target;
  }

  async #send(call: UpstreamCall): Promise<Dispatcher.ResponseData> {
    const target = this.#target(call.deployment);
    const credential = this.env[call.deployment.apiKeyEnv] ?? '';
    let response: Dispatcher.ResponseData;
    // undici's own timers tick about once a second: exact enough for long timeouts, so those
    // cost nothing extra per call; a short one is timed here, through an AbortController.
    const precise = call.timeoutMs < PRECISE_TIMEOUT_BELOW_MS;
    const controller = precise ? new AbortController() : undefined;
    const onAbort = () => controller?.abort(CALLER_GONE);
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    if (controller) {
      if (call.signal.aborted) onAbort();
      else call.signal.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(TIMED_OUT);
      }, call.timeoutMs);
    }
    try {
      response = await this.#pool(target.origin).request({
        method: 'POST',
        path: `${target.basePath}${call.path}`,
        headers: {
          'content-type': 'application/json',
          accept: call.body.stream === true ? 'text/event-stream' : 'application/json',
          authorization: `Bearer ${credential}`,
        },
        body: JSON.stringify(call.body),
        signal: controller ? controller.signal : call.signal,
        headersTimeout: precise ? call.timeoutMs + 1000 : call.timeoutMs,
        bodyTimeout: call.timeoutMs,
      });
    } catch (error) {
      if (controller) call.signal.removeEventListener('abort', onAbort);
      throw timedOut ? new UpstreamFailure('timeout', { cause: error }) : failureFrom(error);
    } finally {
      clearTimeout(timer);
    }
    if (controller && call.body.stream !== true) call.signal.removeEventListener('abort', onAbort);
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
    async function* batches(): AsyncGenerator<string[]> {
      let finished = false;
      try {
        for await (const batch of sseBatches(body)) {
          if (finished) continue;
          const done = batch.indexOf('[DONE]');
          if (done === -1) {
            yield batch;
            continue;
          }
          if (done > 0) yield batch.slice(0, done);
          // Read on to the body's end, which follows at once: leaving a body unfinished costs
          // an abort error with a stack trace per stream.
          finished = true;
        }
      } catch (error) {
        throw failureFrom(error);
      }
      // The body ended without [DONE]: the stream was cut.
      if (!finished) throw new UpstreamFailure('protocol');
    }
    return { batches: batches(), close: () => body.destroy() };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.close().catch(() => undefined)));
    this.#pools.clear();
  }
}

function failureFrom(error: unknown): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
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
