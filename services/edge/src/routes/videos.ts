import { keyAllows } from '@gateway/accounting';
import { GatewayError } from '@gateway/errors';
import type { VideoJob__Output } from '@gateway/protos';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Agent, type Dispatcher } from 'undici';
import type { ModelCatalog } from '../catalog.js';
import type { Downstream } from '../downstream.js';

export interface VideoRoutesOptions {
  downstream: Downstream;
  catalog: ModelCatalog;
}

const STATUS: Readonly<Record<string, string>> = {
  VIDEO_STATUS_QUEUED: 'queued',
  VIDEO_STATUS_IN_PROGRESS: 'in_progress',
  VIDEO_STATUS_COMPLETED: 'completed',
  VIDEO_STATUS_FAILED: 'failed',
  VIDEO_STATUS_CANCELLED: 'cancelled',
};

/** The job object of the specification; never the provider's task id or download address. */
export function jobView(job: VideoJob__Output) {
  const status = STATUS[job.status] ?? 'queued';
  return {
    id: job.id,
    object: 'video',
    model: job.model,
    status,
    progress: job.progress,
    created_at: job.created_at,
    ...(status === 'completed' ? { completed_at: job.completed_at } : {}),
    seconds: String(job.seconds),
    ...(status === 'completed' && job.size ? { size: job.size } : {}),
    ...(status === 'failed' ? { error: { message: job.error_message || 'The video could not be generated.' } } : {}),
    ...(job.total_tokens > 0 ? { usage: { total_tokens: job.total_tokens } } : {}),
  };
}

const FIELDS = ['model', 'prompt', 'seconds', 'resolution', 'ratio', 'input_reference'] as const;
type Field = (typeof FIELDS)[number];

function asText(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new GatewayError('invalid_request', { param: field, message: `Invalid value for '${field}': must be a ${field === 'seconds' ? 'whole number' : 'string'}.` });
}

/** The create request's fields as strings, from JSON or multipart/form-data (the openai SDK v7 sends multipart). */
async function readCreate(request: FastifyRequest): Promise<Record<Field, string>> {
  const out = Object.fromEntries(FIELDS.map((f) => [f, ''])) as Record<Field, string>;
  if (request.isMultipart()) {
    for await (const part of request.parts()) {
      if (!(FIELDS as readonly string[]).includes(part.fieldname)) {
        if (part.type === 'file') part.file.resume();
        continue;
      }
      if (part.type === 'file') {
        part.file.resume();
        throw new GatewayError('invalid_request', { param: part.fieldname, message: `Invalid value for '${part.fieldname}': must be a text field${part.fieldname === 'input_reference' ? ' holding one image URL' : ''}, not a file.` });
      }
      out[part.fieldname as Field] = asText(part.value, part.fieldname);
    }
    return out;
  }
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object or multipart/form-data.' });
  }
  for (const field of FIELDS) out[field] = asText((body as Record<string, unknown>)[field], field);
  return out;
}

const RANGE = /^bytes=(\d*-\d*)(,\s*\d*-\d*)*$/;
// Only what describes the bytes: a provider's ETag or other headers may name its task or storage.
const PASSED_HEADERS = ['content-length', 'content-range', 'accept-ranges'] as const;

/**
 * POST /v1/videos, GET /v1/videos/{id} and GET /v1/videos/{id}/content. Downloads stream the
 * provider's bytes through as they arrive (never buffering the clip), with Range passed on; the
 * provider's signed address is resolved by the video service and never shown.
 */
export const videoRoutes: FastifyPluginAsync<VideoRoutesOptions> = async (app, { downstream, catalog }) => {
  await app.register(multipart, { limits: { fields: 20, fieldSize: 64 * 1024, files: 1, fileSize: 1 } });
  const clips = new Agent({ connections: 64, keepAliveTimeout: 30_000, bodyTimeout: 120_000, headersTimeout: 30_000 });
  app.addHook('onClose', async () => clips.close());

  app.post('/v1/videos', async (request, reply) => {
    const fields = await readCreate(request);
    if (fields.model === '') throw new GatewayError('invalid_request', { param: 'model', message: "Invalid value for 'model': is required." });
    const { key, spentNanoUsd } = request.apiKey;
    const group = await catalog.resolve(fields.model, request.id);
    // On this route a model the key cannot use is a 422: the request is refused before any task exists.
    if (!group || group.mode !== 'video' || !keyAllows(key, group.id)) {
      throw new GatewayError('invalid_request', { param: 'model', message: `Invalid value for 'model': '${fields.model}' is not a video model this key can use.` });
    }
    if (spentNanoUsd >= key.budget_nano_usd) throw new GatewayError('budget_exceeded');
    const job = await downstream.video.createVideo({
      keyId: key.id, model: fields.model, group: group.id, prompt: fields.prompt, seconds: fields.seconds,
      resolution: fields.resolution, ratio: fields.ratio, inputReference: fields.input_reference,
    }, { requestId: request.id });
    return reply.code(200).send(jobView(job));
  });

  app.get<{ Params: { id: string } }>('/v1/videos/:id', async (request) => {
    const job = await downstream.video.getVideo(request.apiKey.key.id, request.params.id, { requestId: request.id });
    return jobView(job);
  });

  app.get<{ Params: { id: string } }>('/v1/videos/:id/content', async (request, reply) => {
    const range = request.headers.range;
    if (range !== undefined && !RANGE.test(range)) {
      return reply.code(416).header('content-type', 'application/json').send({ error: { message: 'Malformed Range header.', type: 'invalid_request_error', code: 'range_not_satisfiable', param: null } });
    }
    const keyId = request.apiKey.key.id;
    const fetchClip = async (refresh: boolean): Promise<Dispatcher.ResponseData> => {
      const url = await downstream.video.resolveContent(keyId, request.params.id, refresh, { requestId: request.id });
      try {
        return await clips.request({ origin: new URL(url).origin, path: `${new URL(url).pathname}${new URL(url).search}`, method: 'GET', headers: range ? { range } : {} });
      } catch (error) {
        throw new GatewayError('upstream_error', { message: 'The clip could not be fetched from the provider.', cause: error });
      }
    };
    let clip = await fetchClip(false);
    if (clip.statusCode === 401 || clip.statusCode === 403 || clip.statusCode === 404 || clip.statusCode === 410) {
      // The signed address went stale (24 hours or 100 downloads): ask for a fresh one, once.
      clip.body.resume();
      clip = await fetchClip(true);
    }
    if (clip.statusCode !== 200 && clip.statusCode !== 206 && clip.statusCode !== 416) {
      clip.body.resume();
      throw new GatewayError('upstream_error', { message: 'The clip could not be fetched from the provider.' });
    }
    reply.code(clip.statusCode).header('content-type', 'video/mp4');
    for (const name of PASSED_HEADERS) {
      const value = clip.headers[name];
      if (typeof value === 'string') reply.header(name, value);
    }
    if (clip.statusCode === 416) {
      clip.body.resume();
      return reply.send();
    }
    // A readable stream: Fastify pipes it with backpressure and destroys it if the caller leaves.
    return reply.send(clip.body);
  });
};
