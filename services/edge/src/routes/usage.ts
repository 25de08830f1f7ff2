import { keyAllows } from '@gateway/contracts';
import { nanosToUsd } from '@gateway/pricing';
import type { FastifyPluginAsync } from 'fastify';
import type { ModelCatalog } from '../catalog.js';
import type { Downstream } from '../downstream.js';
import { callContext } from '../telemetry.js';

export interface UsageRoutesOptions {
  downstream: Downstream;
  catalog: ModelCatalog;
}

/** GET /v1/usage: budget, spend and model access of the calling key (shape in the README). */
export const usageRoutes: FastifyPluginAsync<UsageRoutesOptions> = async (app, { downstream, catalog }) => {
  app.get('/v1/usage', async (request) => {
    const context = callContext(request);
    const [usage, groups] = await Promise.all([
      downstream.accounting.getUsage(request.apiKey.key.id, context),
      catalog.groups(callContext(request)),
    ]);
    const { key } = usage;
    const remaining = Math.max(0, key.budget_nano_usd - usage.spent_nano_usd - usage.reserved_nano_usd);
    return {
      object: 'usage',
      key: { id: key.id, name: key.name, hint: key.hint, created_at: Math.floor(key.created_at_ms / 1000) },
      budget: {
        limit_usd: nanosToUsd(key.budget_nano_usd),
        spent_usd: nanosToUsd(usage.spent_nano_usd),
        reserved_usd: nanosToUsd(usage.reserved_nano_usd),
        remaining_usd: nanosToUsd(remaining),
      },
      models: {
        allowed: key.models,
        available: groups
          .filter((g) => keyAllows(key, g.id))
          .map((g) => g.id)
          .sort(),
      },
      by_model: usage.groups.map((g) => ({ model: g.group, spent_usd: nanosToUsd(g.spent_nano_usd), requests: g.requests })),
      period: { start: Math.floor(usage.period_start_ms / 1000), end: null },
      rate_limits: { rpm: key.rpm || null, tpm: key.tpm || null },
    };
  });
};
