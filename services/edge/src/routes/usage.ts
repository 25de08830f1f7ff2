import { budgetPeriodFromWire } from '@gateway/contracts';
import { nanosToUsd } from '@gateway/pricing';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from '@gateway/typebox';
import { callerMay } from '../auth.js';
import type { ModelCatalog } from '../catalog.js';
import type { Downstream } from '../downstream.js';
import { ROUTE_DEADLINES_MS, routeCall } from '../deadlines.js';
import { callContext } from '../telemetry.js';
import { page, spendLogFilters, spendLogQuery, spendLogRow } from './spend-logs.js';

/** The calling key's own spend log takes the admin log's filters but the key and team: it is always the key's. */
const KeySpendLogsQuery = Type.Object(spendLogFilters, { additionalProperties: false });

export interface UsageRoutesOptions {
  downstream: Downstream;
  catalog: ModelCatalog;
}

/** GET /v1/usage: budget, spend and model access of the calling key (shape in docs/api.md). */
export const usageRoutes: FastifyPluginAsync<UsageRoutesOptions> = async (app, { downstream, catalog }) => {
  app.get('/v1/usage', async (request, reply) => {
    const [usage, groups] = await Promise.all([
      downstream.accounting.getUsage(request.apiKey.key.id, routeCall(request, reply, ROUTE_DEADLINES_MS.usage)),
      catalog.groups(callContext(request)),
    ]);
    const { key } = usage;
    const balance = key.balance;
    const seconds = (ms: number) => (ms ? Math.floor(ms / 1000) : null);
    const remaining = Math.max(0, key.budget_nano_usd - usage.spent_nano_usd - usage.reserved_nano_usd);
    const period = budgetPeriodFromWire(key.budget_period);
    const team = usage.team;
    return {
      object: 'usage',
      key: {
        id: key.id,
        name: key.name,
        hint: key.hint,
        created_at: Math.floor(key.created_at_ms / 1000),
        expires_at: seconds(key.expires_at_ms),
        team_id: key.team_id || null,
      },
      budget: {
        limit_usd: nanosToUsd(key.budget_nano_usd),
        period,
        period_start: Math.floor(usage.period_start_ms / 1000),
        resets_at: seconds(balance?.resets_at_ms ?? 0),
        spent_usd: nanosToUsd(usage.spent_nano_usd),
        lifetime_spent_usd: nanosToUsd(balance?.lifetime_spent_nano_usd ?? usage.spent_nano_usd),
        reserved_usd: nanosToUsd(usage.reserved_nano_usd),
        remaining_usd: nanosToUsd(remaining),
      },
      team: team
        ? {
            id: team.id,
            name: team.name,
            budget: {
              limit_usd: team.has_budget ? nanosToUsd(team.budget_nano_usd) : null,
              period: budgetPeriodFromWire(team.budget_period),
              period_start: seconds(team.balance?.period_start_ms ?? 0),
              resets_at: seconds(team.balance?.resets_at_ms ?? 0),
              spent_usd: nanosToUsd(team.balance?.spent_nano_usd ?? 0),
              reserved_usd: nanosToUsd(team.balance?.reserved_nano_usd ?? 0),
              remaining_usd: team.has_budget
                ? nanosToUsd(
                    Math.max(0, team.budget_nano_usd - (team.balance?.spent_nano_usd ?? 0) - (team.balance?.reserved_nano_usd ?? 0)),
                  )
                : null,
            },
            rate_limits: { rpm: team.rpm || null, tpm: team.tpm || null },
          }
        : null,
      models: {
        allowed: request.apiKey.allowedModels,
        available: groups
          .filter((g) => callerMay(request.apiKey, g.id))
          .map((g) => g.id)
          .sort(),
      },
      // The current period's spend per model (lifetime budgets: since the key's creation).
      by_model: usage.groups.map((g) => ({
        model: g.group,
        spent_usd: nanosToUsd(g.spent_nano_usd),
        requests: g.requests,
        cached_tokens: g.cached_tokens,
        cache_saved_usd: nanosToUsd(g.cache_saved_nano_usd),
      })),
      // by_model's cached prompt tokens and savings summed: the current period's.
      cached_tokens: usage.cached_tokens,
      cache_saved_usd: nanosToUsd(usage.cache_saved_nano_usd),
      daily: usage.daily.map((d) => ({
        date: d.day,
        spend_usd: nanosToUsd(d.spent_nano_usd),
        requests: d.requests,
        cached_tokens: d.cached_tokens,
        cache_saved_usd: nanosToUsd(d.cache_saved_nano_usd),
      })),
      period: { type: period, start: Math.floor(usage.period_start_ms / 1000), end: seconds(balance?.resets_at_ms ?? 0) },
      rate_limits: { rpm: key.rpm || null, tpm: key.tpm || null },
    };
  });

  /**
   * GET /v1/usage/logs: the calling key's spend log, newest first, a page at a time (the same
   * rows as the admin API's `/admin/v1/spend/logs?key_id=`, which a key can never reach).
   */
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get('/v1/usage/logs', { schema: { querystring: KeySpendLogsQuery } }, async (request, reply) => {
      const result = await downstream.accounting.listSpendLogs(
        { keyId: request.apiKey.key.id, ...spendLogQuery(request.query) },
        routeCall(request, reply, ROUTE_DEADLINES_MS.usage),
      );
      return page(result.entries.map(spendLogRow), result.nextPageToken);
    });
};
