import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { GatewayError, toOpenAIError } from '@gateway/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Agent, Dispatcher } from 'undici';
import { guarded, ROUTE_DEADLINES_MS, routeCall } from '../../deadlines.js';
import type { Downstream } from '../../downstream.js';
import { clipResponse, type InlineClip, inlineClip } from '../../inline-clip.js';
import { cutWhenStalled } from '../../stall.js';

// GET /v1/videos/{id}/content: the provider's bytes streamed through as they arrive (never
// buffering the clip), with Range passed on; the provider's signed address is resolved by the
// video service and never shown.

export interface ClipDownloadOptions {
  downstream: Downstream;
  /** A download whose caller reads nothing, or whose provider sends nothing, for this long is cut. */
  stallTimeoutMs: number;
  /** Clip downloads one key may have running at once on this edge. */
  downloadsPerKey: number;
}

export interface ContentRoute {
  Params: { id: string };
  Querystring: { variant?: unknown };
}

const RANGE = /^bytes=(\d*-\d*)(,\s*\d*-\d*)*$/;
// Only what describes the bytes: a provider's ETag or other headers may name its task or storage.
const PASSED_HEADERS = ['content-length', 'content-range', 'accept-ranges'] as const;
/** A provider's answers to a signed address gone stale (24 hours or 100 downloads). */
const STALE_ADDRESS_STATUSES = [401, 403, 404, 410];

/** Clip downloads running per key, each held until its response closes (ended, cut or abandoned). */
class DownloadSlots {
  readonly #running = new Map<string, number>();
  constructor(private readonly perKey: number) {}

  take(keyId: string, res: ServerResponse): void {
    const running = this.#running.get(keyId) ?? 0;
    if (running >= this.perKey) {
      throw new GatewayError('too_many_downloads', {
        message: `This API key has ${running} clip downloads running on this gateway instance, the most it may; retry when one ends.`,
        retryAfterSeconds: 1,
      });
    }
    this.#running.set(keyId, running + 1);
    res.once('close', () => {
      const left = (this.#running.get(keyId) ?? 1) - 1;
      if (left === 0) this.#running.delete(keyId);
      else this.#running.set(keyId, left);
    });
  }
}

/** One download under way: its request and response, the key it counts against, the Range asked. */
interface Download {
  request: FastifyRequest<ContentRoute>;
  reply: FastifyReply;
  res: ServerResponse;
  keyId: string;
  range: string | undefined;
}

/** The clip is the one variant providers give; OpenAI's thumbnail and spritesheet are not. */
function checkVariant(variant: unknown): void {
  if (variant !== undefined && variant !== 'video') {
    throw new GatewayError('invalid_request', {
      param: 'variant',
      message: "Invalid value for 'variant': only 'video' is available for this model (no thumbnail or spritesheet).",
    });
  }
}

function checkRange(range: string | undefined): void {
  if (range !== undefined && !RANGE.test(range)) {
    throw new GatewayError('range_not_satisfiable', { message: 'Malformed Range header.' });
  }
}

/** The range lies past the clip's end: said in the OpenAI shape, with the length. */
function sendPastEnd({ request, reply, res }: Download, contentRange: unknown): void {
  reply.hijack();
  const body = JSON.stringify(toOpenAIError(new GatewayError('range_not_satisfiable')));
  res.writeHead(416, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': request.id,
    ...(typeof contentRange === 'string' ? { 'content-range': contentRange } : {}),
  });
  res.end(body);
}

/** A clip the provider handed over inline (a `data:` address): served as a download server would. */
function sendInline(download: Download, clip: InlineClip): void {
  const { status, headers, body } = clipResponse(clip, download.range);
  if (status === 416) {
    sendPastEnd(download, headers['content-range']);
    return;
  }
  download.reply.hijack();
  download.res.writeHead(status, { ...headers, 'x-request-id': download.request.id });
  download.res.end(body);
}

/** The provider's GET of the clip, with the caller's Range. */
function providerRequest(url: string, range: string | undefined): Dispatcher.RequestOptions {
  const target = new URL(url);
  return { origin: target.origin, path: `${target.pathname}${target.search}`, method: 'GET', headers: range ? { range } : {} };
}

/** Where undici writes a provider's body that is not the clip: nowhere. */
const discard = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * Where the provider's body goes, from its status: the caller's response (headers passed on),
 * or nowhere after a 416 said in the OpenAI shape; any other status is an upstream error.
 */
function bodyDestination(download: Download, { statusCode, headers }: Dispatcher.StreamFactoryData): Writable {
  if (statusCode === 416) {
    sendPastEnd(download, headers['content-range']);
    return discard();
  }
  if (statusCode !== 200 && statusCode !== 206) {
    throw new GatewayError('upstream_error', { message: 'The clip could not be fetched from the provider.' });
  }
  download.reply.hijack();
  const out: Record<string, string> = { 'content-type': 'video/mp4', 'x-request-id': download.request.id };
  for (const name of PASSED_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  download.res.writeHead(statusCode, out);
  return download.res;
}

/**
 * Clip bytes have a pool of their own, with no cap per provider: a cap shared by every caller is
 * what paused readers fill. What bounds them instead: the per-key limit on downloads running at
 * once, and the stall timeout (a provider that sends nothing: bodyTimeout; a caller that reads
 * nothing: cutWhenStalled).
 * undici's agent is loaded on the first download that reaches a provider, not at start, and
 * alone (packages/upstream's http-pool: not undici's entry point, which also loads fetch and
 * Node's bundled copy of undici): its heap is held by no edge that never relays a clip.
 */
class ClipAgent {
  #agent: Promise<Agent> | undefined;
  constructor(private readonly stallTimeoutMs: number) {}

  get(): Promise<Agent> {
    const bodyTimeout = this.stallTimeoutMs;
    this.#agent ??= import('@gateway/upstream').then(
      ({ Agent }) => new Agent({ connections: null, keepAliveTimeout: 30_000, bodyTimeout, headersTimeout: 30_000 }),
    );
    return this.#agent;
  }

  async close(): Promise<void> {
    if (this.#agent) await (await this.#agent).close();
  }
}

/** GET /v1/videos/{id}/content's handler, and the pool and per-key slots its downloads share. */
export class ClipDownloads {
  readonly #options: ClipDownloadOptions;
  readonly #agent: ClipAgent;
  readonly #slots: DownloadSlots;

  constructor(options: ClipDownloadOptions) {
    this.#options = options;
    this.#agent = new ClipAgent(options.stallTimeoutMs);
    this.#slots = new DownloadSlots(options.downloadsPerKey);
  }

  /** The plugin's onClose: the clip pool, if a download opened it. */
  close(): Promise<void> {
    return this.#agent.close();
  }

  async serve(request: FastifyRequest<ContentRoute>, reply: FastifyReply): Promise<FastifyReply> {
    checkVariant(request.query.variant);
    const range = request.headers.range;
    checkRange(range);
    const keyId = request.apiKey.key.id;
    this.#slots.take(keyId, reply.raw);
    const download: Download = { request, reply, res: reply.raw, keyId, range };
    const { stallTimeoutMs } = this.#options;
    cutWhenStalled(download.res, stallTimeoutMs, () =>
      request.log.warn({ requestId: request.id, stallTimeoutMs }, 'clip download cut: its caller read nothing for the stall timeout'),
    );
    // A stale signed address is swapped for a fresh one, once, before anything is sent.
    if ((await this.#relay(download, false)) === 'stale') await this.#relay(download, true);
    return reply;
  }

  async #relay(download: Download, refresh: boolean): Promise<'stale' | 'sent'> {
    const url = await this.#resolve(download, refresh);
    const inline = inlineClip(url);
    if (inline) {
      sendInline(download, inline);
      return 'sent';
    }
    return this.#relayFromProvider(download, url, refresh);
  }

  /** The clip's address, from the video service; bounded: resolving it, not relaying the bytes (the stall timeout bounds those). */
  #resolve({ request, reply, keyId }: Download, refresh: boolean): Promise<string> {
    const { downstream } = this.#options;
    // Within the route's deadline, ended when the caller leaves or the probes find the service hung.
    return guarded(downstream, 'video', routeCall(request, reply, ROUTE_DEADLINES_MS.videoContent), (context) =>
      downstream.video.resolveContent(keyId, request.params.id, refresh, context),
    );
  }

  /**
   * undici writes the body straight into the response (no Readable in between), with
   * backpressure. 'stale': the provider refused the address before anything was sent.
   */
  async #relayFromProvider(download: Download, url: string, refresh: boolean): Promise<'stale' | 'sent'> {
    let outcome: 'stale' | 'sent' = 'sent';
    try {
      const agent = await this.#agent.get();
      await agent.stream(providerRequest(url, download.range), (answer) => {
        if (STALE_ADDRESS_STATUSES.includes(answer.statusCode) && !refresh) {
          outcome = 'stale';
          return discard();
        }
        return bodyDestination(download, answer);
      });
    } catch (error) {
      if (download.res.headersSent) {
        download.res.destroy();
        return 'sent';
      }
      throw error instanceof GatewayError
        ? error
        : new GatewayError('upstream_error', { message: 'The clip could not be fetched from the provider.', cause: error });
    }
    return outcome;
  }
}
