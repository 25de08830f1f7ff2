import type { DailySpend__Output } from '@gateway/protos';
import { trafficSummary } from '@gateway/telemetry';
import type { AdminApp, AdminContext } from './context.js';
import { NoQuery } from './schemas.js';
import { overviewView, type SpendToDate } from './views.js';

const utcDayOf = (date: Date): string => date.toISOString().slice(0, 10);

/** This month's days summed, and today's alone. */
function spendToDate(days: DailySpend__Output[], today: string): SpendToDate {
  const spend: SpendToDate = { month: 0, monthSaved: 0, today: 0, requestsToday: 0, cachedToday: 0 };
  for (const day of days) {
    spend.month += day.spent_nano_usd;
    spend.monthSaved += day.cache_saved_nano_usd;
    if (day.day !== today) continue;
    spend.today += day.spent_nano_usd;
    spend.requestsToday += day.requests;
    spend.cachedToday += day.cached_tokens;
  }
  return spend;
}

/** GET /admin/v1/overview: the dashboard's first page. */
export function overviewRoutes(app: AdminApp, { accounting, call }: AdminContext): void {
  app.get('/admin/v1/overview', { schema: { querystring: NoQuery } }, async (request) => {
    const now = new Date();
    const today = utcDayOf(now);
    const monthStart = `${today.slice(0, 8)}01`;
    const [traffic, days] = await Promise.all([
      trafficSummary(),
      accounting.getDailySpend({ fromDay: monthStart, toDay: today }, call(request)),
    ]);
    return overviewView(traffic, spendToDate(days, today));
  });
}
