import { page, spendLogQuery, spendLogRow } from '../spend-logs.js';
import type { AdminApp, AdminContext } from './context.js';
import { DailyQuery, SpendLogsQuery, TopQuery } from './schemas.js';
import { dailySpendView, topSpenderView } from './views.js';

/** /admin/v1/spend: the spend log of any key or team, spend per day and group, the top spenders. */
export function spendRoutes(app: AdminApp, { accounting, call }: AdminContext): void {
  app.get('/admin/v1/spend/logs', { schema: { querystring: SpendLogsQuery } }, async (request) => {
    const q = request.query;
    const result = await accounting.listSpendLogs({ keyId: q.key_id, teamId: q.team_id, ...spendLogQuery(q) }, call(request));
    return page(result.entries.map(spendLogRow), result.nextPageToken);
  });

  app.get('/admin/v1/spend/daily', { schema: { querystring: DailyQuery } }, async (request) => {
    const q = request.query;
    const days = await accounting.getDailySpend(
      { keyId: q.key_id, teamId: q.team_id, group: q.group, fromDay: q.from, toDay: q.to },
      call(request),
    );
    return { object: 'list', data: days.map(dailySpendView) };
  });

  app.get('/admin/v1/spend/top', { schema: { querystring: TopQuery } }, async (request) => {
    const q = request.query;
    const spenders = await accounting.getTopSpenders(
      { by: q.by ?? 'key', fromDay: q.from, toDay: q.to, limit: q.limit ?? 10 },
      call(request),
    );
    return { object: 'list', data: spenders.map(topSpenderView) };
  });
}
