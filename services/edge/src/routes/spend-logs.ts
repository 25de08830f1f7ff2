import { nanosToUsd } from '@gateway/pricing';
import type { SpendLogEntry__Output } from '@gateway/protos';
import Type from '@gateway/typebox';

// What the admin spend log (`GET /admin/v1/spend/logs`) and a key's own
// (`GET /v1/usage/logs`) share: the filters' shapes, a row, and a page.

/** Unix seconds, up to the year 9999; 0 means unbounded. */
const Seconds = Type.Integer({ minimum: 0, maximum: 253_402_300_799 });

/** The filters every spend-log listing takes; the admin one adds `key_id` and `team_id`. */
export const spendLogFilters = {
  group: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  from: Type.Optional(Seconds),
  to: Type.Optional(Seconds),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  after: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
};

export interface SpendLogFilters {
  group?: string;
  from?: number;
  to?: number;
  limit?: number;
  after?: string;
}

/** The filters as accounting's ListSpendLogs takes them (newest first, 100 a page by default). */
export function spendLogQuery(q: SpendLogFilters) {
  return { group: q.group, fromMs: (q.from ?? 0) * 1000, toMs: (q.to ?? 0) * 1000, pageSize: q.limit ?? 100, pageToken: q.after };
}

export function spendLogRow(e: SpendLogEntry__Output) {
  return {
    id: e.id,
    object: 'spend_log',
    key_id: e.key_id,
    team_id: e.team_id || null,
    group: e.group,
    kind: e.kind,
    cost_usd: nanosToUsd(e.cost_nano_usd),
    usage: e.usage,
    // Prompt tokens served from the upstream's cache (also in `usage` when there were any) and
    // what they saved; both 0 on video rows and on rows billed before they were recorded.
    cached_tokens: e.usage.cached_tokens ?? 0,
    cache_saved_usd: nanosToUsd(e.cache_saved_nano_usd),
    estimated: e.estimated,
    created_at: Math.floor(e.occurred_at_ms / 1000),
  };
}

/** A page of a list: `next_after` is the cursor of the next page (null on the last). */
export function page<T>(data: T[], next: string) {
  return { object: 'list', data, has_more: next !== '', next_after: next || null };
}
