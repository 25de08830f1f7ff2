import { groupMode } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { ModelGroup__Output } from '@gateway/protos';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { callerMay } from '../auth.js';
import type { ModelCatalog } from '../catalog.js';
import { callContext } from '../telemetry.js';

export interface ModelsRoutesOptions {
  catalog: ModelCatalog;
}

/** A served group as an OpenAI model object, under the name the caller used. */
function modelObject(group: ModelGroup__Output, id = group.id) {
  return {
    id,
    object: 'model',
    created: Math.floor(group.created_at_ms / 1000),
    owned_by: 'gateway',
    mode: groupMode(group),
    max_input_tokens: group.max_input_tokens || null,
    max_output_tokens: group.max_output_tokens || null,
  };
}

/** A served group as an Anthropic model object (asked with `anthropic-version`). */
function anthropicModel(group: ModelGroup__Output, id = group.id) {
  return { type: 'model', id, display_name: id, created_at: new Date(group.created_at_ms).toISOString() };
}

/** Anthropic's SDKs send `anthropic-version` on every call: the list answers in their shape. */
const anthropic = (request: FastifyRequest) => request.headers['anthropic-version'] !== undefined;

/**
 * GET /v1/models: the served groups the calling key may call, ids only (aliases are not listed).
 * GET /v1/models/{id}: one of them by id or alias (the SDK's `models.retrieve`); anything else,
 * unknown, unserved or not the key's, is the same 404.
 */
export const modelsRoutes: FastifyPluginAsync<ModelsRoutesOptions> = async (app, { catalog }) => {
  app.get('/v1/models', async (request) => {
    const groups = (await catalog.groups(callContext(request)))
      .filter((group) => callerMay(request.apiKey, group.id))
      .sort((a, b) => a.id.localeCompare(b.id));
    if (anthropic(request)) {
      // One page: a key's groups are few. Cursors are accepted and answer the same page.
      // Only what /v1/messages can call: Claude Code offers every model listed.
      const data = groups.filter((group) => groupMode(group) === 'chat').map((group) => anthropicModel(group));
      return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
    }
    return { object: 'list', data: groups.map((group) => modelObject(group)) };
  });

  app.get<{ Params: { id: string } }>('/v1/models/:id', async (request) => {
    const { id } = request.params;
    const group = await catalog.resolve(id, callContext(request));
    if (!group || !callerMay(request.apiKey, group.id)) {
      throw new GatewayError('not_found', { param: 'model', message: `The model '${id}' does not exist or this API key cannot use it.` });
    }
    return anthropic(request) ? anthropicModel(group, id) : modelObject(group, id);
  });
};
