import { groupMode } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import multipart from '@fastify/multipart';
import type { CallContext } from '@gateway/grpc';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { callerMay } from '../auth.js';
import type { ModelCatalog } from '../catalog.js';
import type { Downstream } from '../downstream.js';
import { guarded, ROUTE_DEADLINES_MS, routeCall } from '../deadlines.js';
import { callContext } from '../telemetry.js';
import { readCreate } from './videos/create-fields.js';
import { ClipDownloads, type ContentRoute } from './videos/download.js';
import { jobView } from './videos/job-view.js';

export { jobView } from './videos/job-view.js';

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

/** The video group a create names, if the caller's key may use it; a 422 otherwise, before any task exists. */
async function videoGroupFor(request: FastifyRequest, catalog: ModelCatalog, model: string) {
  const group = await catalog.resolve(model, callContext(request));
  if (group) request.metricsGroup = group.id;
  if (!group || groupMode(group) !== 'video' || !callerMay(request.apiKey, group.id)) {
    throw new GatewayError('invalid_request', {
      param: 'model',
      message: `Invalid value for 'model': '${model}' is not a video model this key can use.`,
    });
  }
  return group;
}

interface ListQuery {
  after?: string;
  limit?: string;
  order?: string;
}

/** GET /v1/videos's query as the video service's page: a 422 naming a parameter out of range. */
function listPage({ after, limit, order }: ListQuery): { pageSize: number; after: string; ascending: boolean } {
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
  return { pageSize: size, after: after ?? '', ascending: order === 'asc' };
}

/**
 * POST /v1/videos, GET /v1/videos/{id} and GET /v1/videos/{id}/content. Downloads stream the
 * provider's bytes through as they arrive (never buffering the clip), with Range passed on; the
 * provider's signed address is resolved by the video service and never shown (videos/download.ts).
 */
export const videoRoutes: FastifyPluginAsync<VideoRoutesOptions> = async (app, options) => {
  const { downstream, catalog, stallTimeoutMs, downloadsPerKey, createDeadlineMs } = options;
  // Each call to the video service: within the route's deadline, ended when the caller leaves
  // or the probes find the service hung (then a 503 with Retry-After at once).
  const video = <T>(request: FastifyRequest, reply: FastifyReply, deadlineMs: number, call: (context: CallContext) => Promise<T>) =>
    guarded(downstream, 'video', routeCall(request, reply, deadlineMs), call);
  await app.register(multipart, { limits: { fields: 20, fieldSize: 64 * 1024, files: 1, fileSize: 1 } });
  const downloads = new ClipDownloads({ downstream, stallTimeoutMs, downloadsPerKey });
  app.addHook('onClose', () => downloads.close());
  // While the probes find the video service down, calls get a 503 at once rather than a deadline's wait.
  app.addHook('onRequest', (_request, _reply, done) => done(downstream.refusal('video')));

  app.post('/v1/videos', async (request, reply) => {
    const fields = await readCreate(request);
    if (fields.model === '')
      throw new GatewayError('invalid_request', { param: 'model', message: "Invalid value for 'model': is required." });
    const { key, spentNanoUsd } = request.apiKey;
    // On this route a model the key cannot use is a 422: the request is refused before any task exists.
    const group = await videoGroupFor(request, catalog, fields.model);
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
  app.get<{ Querystring: ListQuery }>('/v1/videos', async (request, reply) => {
    const query = listPage(request.query);
    const page = await video(request, reply, ROUTE_DEADLINES_MS.videoRead, (context) =>
      downstream.video.listVideos(request.apiKey.key.id, query, context),
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

  app.get<ContentRoute>('/v1/videos/:id/content', (request, reply) => downloads.serve(request, reply));
};
