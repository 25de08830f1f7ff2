import { groupMode } from '@gateway/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { callerMay } from '../auth.js';
import type { ModelCatalog } from '../catalog.js';
import { callContext } from '../telemetry.js';

export interface ModelsRoutesOptions {
  catalog: ModelCatalog;
}

/** GET /v1/models: the served groups the calling key may call, ids only (aliases are not listed). */
export const modelsRoutes: FastifyPluginAsync<ModelsRoutesOptions> = async (app, { catalog }) => {
  app.get('/v1/models', async (request) => {
    const groups = await catalog.groups(callContext(request));
    return {
      object: 'list',
      data: groups
        .filter((group) => callerMay(request.apiKey, group.id))
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((group) => ({
          id: group.id,
          object: 'model',
          created: Math.floor(group.created_at_ms / 1000),
          owned_by: 'gateway',
          mode: groupMode(group),
          max_input_tokens: group.max_input_tokens || null,
          max_output_tokens: group.max_output_tokens || null,
        })),
    };
  });
};
