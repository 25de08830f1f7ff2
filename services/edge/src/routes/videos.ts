import { groupMode, videoJobStatus } from '@gateway/contracts';
import { GatewayError, toOpenAIError } from '@gateway/errors';
import type { VideoJob__Output } from '@gateway/protos';
import multipart from '@fastify/multipart';
import type { CallContext } from '@gateway/grpc';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { Agent, Dispatcher } from 'undici';
import { callerMay } from '../auth.js';
import { clipResponse, inlineClip } from '../inline-clip.js';
import type { ModelCatalog } from '../catalog.js';
import type { Downstream } from '../downstream.js';
import { guarded, ROUTE_DEADLINES_MS, routeCall } from '../deadlines.js';
import { cutWhenStalled } from '../stall.js';
import { callContext } from '../telemetry.js';

export interface VideoRoutesOptions {
  downstream: Downstream;
  catalog: ModelCatalog;
  /** A download whose caller reads nothing, or whose provider sends nothing, for this long is cut. */
  stallTimeoutMs: number;
  /** Clip downloads one key may have running at once on this edge. */
  downloadsPerKey: number;
  /** A create's deadline: the providers' longest timeout and a margin (deadlines.ts). */
  createDeadlineMs: number;
}

/** The job object of the specification; never the provider's task id or download address. */
export function jobView(job: VideoJob__Output) {
  const status = videoJobStatus(job.status);
  return {
    id: job.id,
    object: 'video',
    model: job.model,
    status,
    progress: job.progress,
    created_at: Math.floor(job.created_at_ms / 1000),
    ...(status === 'completed' ? { completed_at: Math.floor(job.completed_at_ms / 1000) } : {}),
    seconds: String(job.seconds),
    ...(status === 'completed' && job.size ? { size: job.size } : {}),
    ...(status === 'failed'
      ? { error: { code: job.error_code || 'generation_failed', message: job.error_message || 'The video could not be generated.' } }
      : {}),
    // When the record, and with it the clip, goes away.
    ...(job.expires_at_ms ? { expires_at: Math.floor(job.expires_at_ms / 1000) } : {}),
    ...(job.total_tokens > 0 ? { usage: { total_tokens: job.total_tokens } } : {}),
  };
}

const FIELDS = ['model', 'prompt', 'seconds', 'resolution', 'ratio', 'input_reference', 'size'] as const;
type Field = (typeof FIELDS)[number];

function asText(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  // Only seconds is a number; it may come as one (JSON) or as digits (multipart, the openai SDK).
  if (typeof value === 'string' && (field !== 'seconds' || /^\d{1,4}$/.test(value))) return value;
  if (field === 'seconds' && typeof value === 'number' && Number.isInteger(value)) return String(value);
  throw new GatewayError('invalid_request', {
    param: field,
    message: `Invalid value for '${field}': must be a ${field === 'seconds' ? 'whole number' : 'string'}.`,
  });
}

/**
 * `input_reference` as a URL: the plain string, or the openai SDK's object form
 * `{ image_url: "…" }`; any other shape is a 422 naming the field, never dropped.
 */
function imageReference(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const url = (value as { image_url?: unknown }).image_url;
    if (typeof url === 'string') return url;
    throw new GatewayError('invalid_request', {
      param: 'input_reference',
      message: "Invalid value for 'input_reference': must be an image URL, or an object with an 'image_url' string.",
    });
  }
  return asText(value, 'input_reference');
}

/** The create request's fields as strings, from JSON or multipart/form-data (the openai SDK v7 sends multipart). */
async function readCreate(request: FastifyRequest): Promise<Record<Field, string>> {
  const out = Object.fromEntries(FIELDS.map((f) => [f, ''])) as Record<Field, string>;
  if (request.isMultipart()) {
    try {
      await readParts(request, out);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      // The form parser's own complaints (no boundary, cut short, too large) are the caller's.
      const code = (error as { code?: unknown }).code;
      throw new GatewayError(code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FIELDS_LIMIT' ? 'request_too_large' : 'invalid_request', {
        message: `The multipart/form-data body could not be read: ${(error as Error).message.split('\n')[0]}`,
      });
    }
    return out;
  }
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object or multipart/form-data.' });
  }
  for (const field of FIELDS) {
    // Own keys only: a body without "model" must not find Object.prototype's members.
    const value = Object.hasOwn(body, field) ? (body as Record<string, unknown>)[field] : undefined;
    out[field] = field === 'input_reference' ? imageReference(value) : asText(value, field);
  }
  return out;
}

async function readParts(request: FastifyRequest, out: Record<Field, string>): Promise<void> {
  for await (const part of request.parts()) {
    // The object form of input_reference, as form encoders write nested fields.
    if (part.fieldname === 'input_reference[image_url]' && part.type === 'field') {
      out.input_reference = asText(part.value, 'input_reference');
      continue;
    }
    if (!(FIELDS as readonly string[]).includes(part.fieldname)) {
      if (part.type === 'file') part.file.resume();
      continue;
    }
    if (part.type === 'file') {
      part.file.resume();
      throw new GatewayError('invalid_request', {
        param: part.fieldname,
        message: `Invalid value for '${part.fieldname}': must be a text field${part.fieldname === 'input_reference' ? ' holding one image URL' : ''}, not a file.`,
      });
    }
    out[part.fieldname as Field] = asText(part.value, part.fieldname);
  }
}

const RANGE = /^bytes=(\d*-\d*)(,\s*\d*-\d*)*$/;
// Only what describes the bytes: a provider's ETag or other headers may name its task or storage.
const PASSED_HEADERS = ['content-length', 'content-range', 'accept-ranges'] as const;

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

/**
 * POST /v1/videos, GET /v1/videos/{id} and GET /v1/videos/{id}/content. Downloads stream the
 * provider's bytes through as they arrive (never buffering the clip), with Range passed on; the
 * provider's signed address is resolved by the video service and never shown.
 */
export const videoRoutes: FastifyPluginAsync<VideoRoutesOptions> = async (app, options) => {
  const { downstream, catalog, stallTimeoutMs, downloadsPerKey, createDeadlineMs } = options;
  // Each call to the video service: within the route's deadline, ended when the caller leaves
  // or the probes find the service hung (then a 503 with Retry-After at once).
  const video = <T>(request: FastifyRequest, reply: FastifyReply, deadlineMs: number, call: (context: CallContext) => Promise<T>) =>
    guarded(downstream, 'video', routeCall(request, reply, deadlineMs), call);
  await app.register(multipart, { limits: { fields: 20, fieldSize: 64 * 1024, files: 1, fileSize: 1 } });
  // Clip bytes have a pool of their own, with no cap per provider: a cap shared by every caller
  // is what paused readers fill. What bounds them instead: the per-key limit on downloads
  // running at once, and the stall timeout (a provider that sends nothing: bodyTimeout; a caller
  // that reads nothing: cutWhenStalled).
  // undici's agent is loaded on the first download that reaches a provider, not at start, and
  // alone (packages/upstream's http-pool: not undici's entry point, which also loads fetch and
  // Node's bundled copy of undici): its heap is held by no edge that never relays a clip.
  let clips: Promise<Agent> | undefined;
  const clipAgent = (): Promise<Agent> =>
    (clips ??= import('@gateway/upstream').then(
      ({ Agent }) => new Agent({ connections: null, keepAliveTimeout: 30_000, bodyTimeout: stallTimeoutMs, headersTimeout: 30_000 }),
    ));
  app.addHook('onClose', async () => {
    if (clips) await (await clips).close();
  });
  const downloads = new DownloadSlots(downloadsPerKey);
  // While the probes find the video service down, calls get a 503 at once rather than a deadline's wait.
  app.addHook('onRequest', (_request, _reply, done) => done(downstream.refusal('video')));

  app.post('/v1/videos', async (request, reply) => {
    const fields = await readCreate(request);
    if (fields.model === '')
      throw new GatewayError('invalid_request', { param: 'model', message: "Invalid value for 'model': is required." });
    const { key, spentNanoUsd } = request.apiKey;
    const group = await catalog.resolve(fields.model, callContext(request));
    if (group) request.metricsGroup = group.id;
    // On this route a model the key cannot use is a 422: the request is refused before any task exists.
    if (!group || groupMode(group) !== 'video' || !callerMay(request.apiKey, group.id)) {
      throw new GatewayError('invalid_request', {
        param: 'model',
        message: `Invalid value for 'model': '${fields.model}' is not a video model this key can use.`,
      });
    }
    if (spentNanoUsd >= key.budget_nano_usd) throw new GatewayError('budget_exceeded');
    const job = await video(request, reply, createDeadlineMs, (context) =>
      downstream.video.createVideo(
        {
          keyId: key.id,
          model: fields.model,
          group: group.id,
          prompt: fields.prompt,
          seconds: fields.seconds,
          resolution: fields.resolution,
          ratio: fields.ratio,
          inputReference: fields.input_reference,
          size: fields.size,
        },
        context,
      ),
    );
    return reply.code(200).send(jobView(job));
  });

  // The caller's jobs, as the openai SDK's videos.list reads them.
  app.get<{ Querystring: { after?: string; limit?: string; order?: string } }>('/v1/videos', async (request, reply) => {
    const { after, limit, order } = request.query;
    const size = limit === undefined ? 20 : Number(limit);
    if (!Number.isInteger(size) || size < 1 || size > 100) {
      throw new GatewayError('invalid_request', {
        param: 'limit',
        message: "Invalid value for 'limit': must be a whole number from 1 to 100.",
      });
    }
    if (order !== undefined && order !== 'asc' && order !== 'desc') {
      throw new GatewayError('invalid_request', { param: 'order', message: "Invalid value for 'order': must be 'asc' or 'desc'." });
    }
    if (after !== undefined && (typeof after !== 'string' || after.length > 100)) {
      throw new GatewayError('invalid_request', { param: 'after', message: "Invalid value for 'after': must be a video id." });
    }
    const page = await video(request, reply, ROUTE_DEADLINES_MS.videoRead, (context) =>
      downstream.video.listVideos(request.apiKey.key.id, { pageSize: size, after: after ?? '', ascending: order === 'asc' }, context),
    );
    const data = page.jobs.map(jobView);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: page.hasMore };
  });

  app.delete<{ Params: { id: string } }>('/v1/videos/:id', async (request, reply) => {
    await video(request, reply, ROUTE_DEADLINES_MS.videoRead, (context) =>
      downstream.video.deleteVideo(request.apiKey.key.id, request.params.id, context),
    );
    return { id: request.params.id, object: 'video.deleted', deleted: true };
  });

  app.get<{ Params: { id: string } }>('/v1/videos/:id', async (request, reply) => {
    // The video service answers from the record when a provider refresh would overrun this.
    const job = await video(request, reply, ROUTE_DEADLINES_MS.videoRead, (context) =>
      downstream.video.getVideo(request.apiKey.key.id, request.params.id, context),
    );
    request.metricsGroup = catalog.cachedGroupId(job.model) ?? '';
    return jobView(job);
  });

  app.get<{ Params: { id: string }; Querystring: { variant?: unknown } }>('/v1/videos/:id/content', async (request, reply) => {
    // The clip is the one variant providers give; OpenAI's thumbnail and spritesheet are not.
    const variant = request.query.variant;
    if (variant !== undefined && variant !== 'video') {
      throw new GatewayError('invalid_request', {
        param: 'variant',
        message: "Invalid value for 'variant': only 'video' is available for this model (no thumbnail or spritesheet).",
      });
    }
    const range = request.headers.range;
    if (range !== undefined && !RANGE.test(range)) {
      throw new GatewayError('range_not_satisfiable', { message: 'Malformed Range header.' });
    }
    const keyId = request.apiKey.key.id;
    downloads.take(keyId, reply.raw);
    const options = (url: string): Dispatcher.RequestOptions => {
      const target = new URL(url);
      return { origin: target.origin, path: `${target.pathname}${target.search}`, method: 'GET', headers: range ? { range } : {} };
    };
    const res = reply.raw;
    // The range lies past the clip's end: said in the OpenAI shape, with the length.
    const pastEnd = (contentRange: unknown) => {
      reply.hijack();
      const body = JSON.stringify(toOpenAIError(new GatewayError('range_not_satisfiable')));
      res.writeHead(416, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'x-request-id': request.id,
        ...(typeof contentRange === 'string' ? { 'content-range': contentRange } : {}),
      });
      res.end(body);
    };
    cutWhenStalled(res, stallTimeoutMs, () =>
      request.log.warn({ requestId: request.id, stallTimeoutMs }, 'clip download cut: its caller read nothing for the stall timeout'),
    );
    // undici writes the body straight into the response (no Readable in between), with
    // backpressure; a stale signed address (24 hours or 100 downloads) is swapped for a fresh
    // one, once, before anything is sent.
    const relay = async (refresh: boolean): Promise<'stale' | 'sent'> => {
      // Bounded: resolving the address, not relaying the bytes (the stall timeout bounds those).
      const url = await video(request, reply, ROUTE_DEADLINES_MS.videoContent, (context) =>
        downstream.video.resolveContent(keyId, request.params.id, refresh, context),
      );
      const inline = inlineClip(url);
      if (inline) {
        const { status, headers, body } = clipResponse(inline, range);
        if (status === 416) {
          pastEnd(headers['content-range']);
          return 'sent';
        }
        reply.hijack();
        res.writeHead(status, { ...headers, 'x-request-id': request.id });
        res.end(body);
        return 'sent';
      }
      let outcome: 'stale' | 'sent' = 'sent';
      try {
        const agent = await clipAgent();
        await agent.stream(options(url), ({ statusCode, headers }) => {
          if ([401, 403, 404, 410].includes(statusCode) && !refresh) {
            outcome = 'stale';
            return new Writable({ write: (_chunk, _encoding, done) => done() });
          }
          if (statusCode === 416) {
            pastEnd(headers['content-range']);
            return new Writable({ write: (_chunk, _encoding, done) => done() });
          }
          if (statusCode !== 200 && statusCode !== 206) {
            throw new GatewayError('upstream_error', { message: 'The clip could not be fetched from the provider.' });
          }
          reply.hijack();
          const out: Record<string, string> = { 'content-type': 'video/mp4', 'x-request-id': request.id };
          for (const name of PASSED_HEADERS) {
            const value = headers[name];
            if (typeof value === 'string') out[name] = value;
          }
          res.writeHead(statusCode, out);
          return res;
        });
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return 'sent';
        }
        throw error instanceof GatewayError
          ? error
          : new GatewayError('upstream_error', { message: 'The clip could not be fetched from the provider.', cause: error });
      }
      return outcome;
    };
    if ((await relay(false)) === 'stale') await relay(true);
    return reply;
  });
};
