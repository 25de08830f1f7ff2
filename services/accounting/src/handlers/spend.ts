import type { AccountingServiceHandlers } from '@gateway/protos';
import { balanceView } from '../domain/balances.js';
import { DAY_MS, utcDay } from '../domain/periods.js';
import { addFigures, noFigures } from '../domain/spend-figures.js';
import { dailySpendMessage, groupUsageMessage, keyMessage, spendLogMessage, teamMessage } from '../messages.js';
import type { HandlerContext } from './context.js';

// The spend and usage RPCs: a key's usage, spend logs, daily spend and top spenders. Each reads
// only once this process's spend consumer has applied what was published before it.

type SpendRpc = 'GetUsage' | 'ListSpendLogs' | 'GetDailySpend' | 'GetTopSpenders';

/** The last 30 UTC days up to today, where the request names no day. */
function dayRange(request: { from_day: string; to_day: string }, now: number): { fromDay: string; toDay: string } {
  return { fromDay: request.from_day || utcDay(now - 29 * DAY_MS), toDay: request.to_day || utcDay(now) };
}

export function spendHandlers(ctx: HandlerContext): Pick<AccountingServiceHandlers, SpendRpc> {
  const { server, ledger, clock, spendApplied } = ctx;
  return {
    GetUsage: getUsage(ctx),
    ListSpendLogs: server.unary('ListSpendLogs', async (request) => {
      await spendApplied();
      const page = await ledger.spendLogs({
        keyId: request.key_id,
        teamId: request.team_id,
        group: request.group,
        fromMs: request.from_ms,
        toMs: request.to_ms,
        limit: request.page_size,
        after: request.page_token,
      });
      return { entries: page.entries.map(spendLogMessage), next_page_token: page.next };
    }),
    GetDailySpend: server.unary('GetDailySpend', async (request) => {
      await spendApplied();
      const { fromDay, toDay } = dayRange(request, clock());
      const rows = await ledger.dailySpend({ keyId: request.key_id, teamId: request.team_id, group: request.group, fromDay, toDay });
      return { days: rows.map(dailySpendMessage) };
    }),
    GetTopSpenders: getTopSpenders(ctx),
  };
}

function getUsage({ server, keys, ledger, clock, liveTeam, spendApplied }: HandlerContext): AccountingServiceHandlers['GetUsage'] {
  return server.unary('GetUsage', async (request) => {
    await spendApplied();
    const key = await keys.get(request.key_id);
    const team = await liveTeam(key);
    const now = clock();
    const view = balanceView(key, now);
    // Periodic budgets: the groups' spend in this period (periods start at UTC midnights, so the daily spend sums it exactly).
    const groups = key.budget_period ? await ledger.groupsSince(key._id, view.periodStartMs) : await ledger.usageOf(key._id);
    const daily = await ledger.recentDays(key._id, 30);
    const period = groups.reduce((sum, g) => addFigures(sum, g), noFigures());
    return {
      key: keyMessage(key, now),
      spent_nano_usd: view.spent,
      reserved_nano_usd: view.reserved,
      groups: groups.map(groupUsageMessage),
      period_start_ms: view.periodStartMs,
      team: team ? teamMessage(team, now) : null,
      daily: daily.map((d) => dailySpendMessage({ ...d, group: '' })),
      cached_tokens: period.cached_tokens,
      cache_saved_nano_usd: period.cache_saved_nano_usd,
    };
  });
}

function getTopSpenders({ server, keys, teams, ledger, clock, spendApplied }: HandlerContext): AccountingServiceHandlers['GetTopSpenders'] {
  return server.unary('GetTopSpenders', async (request) => {
    await spendApplied();
    const by = request.by === 'SPENDER_KIND_TEAM' ? 'team' : 'key';
    const top = await ledger.topSpenders(by, dayRange(request, clock()), request.limit);
    const ids = top.map((row) => row.id);
    const names = new Map<string, string>();
    if (by === 'key') for (const [id, key] of await keys.getMany(ids)) names.set(id, key.name);
    else for (const [id, team] of await teams.findMany(ids)) names.set(id, team.name);
    return { spenders: top.map((row) => ({ ...row, name: names.get(row.id) ?? '' })) };
  });
}
