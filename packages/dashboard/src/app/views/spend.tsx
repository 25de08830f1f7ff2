import { useMemo, useState } from 'preact/hooks';
import { ApiError, type DailySpend, get, type Page, type Session, type TopSpender } from '../api';
import type { StackedSeries } from '../chart';
import { StackedBars } from '../lazy-chart';
import { ErrorNote, SpendTable, Status } from '../components';
import { formatCount, formatUsd, utcDay } from '../format';
import { usePoll } from '../hooks';

/** A list that failed alone is shown as its error, beside the others. */
function asApiError(failure: unknown): ApiError {
  return failure instanceof ApiError ? failure : new ApiError(0, 'page_error', String(failure));
}

/** Every day from `from` to `to`, both included. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= end && days.length <= 366; at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/** Daily rows (day × group) as one series per group over every day of the range. */
function stacks(rows: DailySpend[], days: string[]): StackedSeries[] {
  const index = new Map(days.map((day, i) => [day, i]));
  const byGroup = new Map<string, number[]>();
  for (const row of rows) {
    let values = byGroup.get(row.group);
    if (!values) {
      values = days.map(() => 0);
      byGroup.set(row.group, values);
    }
    const i = index.get(row.date);
    if (i !== undefined) values[i] = (values[i] ?? 0) + row.spend_usd;
  }
  return [...byGroup.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([label, values]) => ({ label, values }));
}

function TopTable({ title, rows, link, testid }: { title: string; rows: TopSpender[]; link?: boolean; testid: string }) {
  const named = rows.map((row) => ({
    id: row.id,
    spend: row.spend_usd,
    requests: row.requests,
    name: (
      <>
        {link ? <a href={`#/keys/${encodeURIComponent(row.id)}`}>{row.name}</a> : row.name} <small class="muted">{row.id}</small>
      </>
    ),
  }));
  return (
    <div class="panel">
      <h2>{title}</h2>
      <Status loaded error={undefined} empty={rows.length === 0 ? 'No spend in this range.' : undefined} />
      {rows.length > 0 ? <SpendTable testid={testid} rows={named} /> : null}
    </div>
  );
}

/** Spend per day stacked by group over a date range, and who spent most in it. */
export function SpendView({ session }: { session: Session }) {
  const [range, setRange] = useState({ from: utcDay(-29), to: utcDay(0) });
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(range.from) && /^\d{4}-\d{2}-\d{2}$/.test(range.to) && range.from <= range.to;
  const { data, error } = usePoll(
    async (signal) => {
      if (!valid) return undefined;
      const top = (by: 'key' | 'team') => get<Page<TopSpender>>(session, '/admin/v1/spend/top', { by, ...range, limit: 10 }, signal);
      const [daily, keys, teams] = await Promise.all([
        get<Page<DailySpend>>(session, '/admin/v1/spend/daily', range, signal),
        top('key').catch(asApiError),
        top('team').catch(asApiError),
      ]);
      return { daily: daily.data, keys, teams };
    },
    [session, range.from, range.to],
  );
  const days = useMemo(() => (valid ? daysBetween(range.from, range.to) : []), [valid, range.from, range.to]);
  const series = useMemo(() => (data ? stacks(data.daily, days) : []), [data, days]);
  const total = data?.daily.reduce((sum, row) => sum + row.spend_usd, 0) ?? 0;
  const requests = data?.daily.reduce((sum, row) => sum + row.requests, 0) ?? 0;
  const saved = data?.daily.reduce((sum, row) => sum + row.cache_saved_usd, 0) ?? 0;
  const set = (field: 'from' | 'to') => (event: Event) => setRange({ ...range, [field]: (event.currentTarget as HTMLInputElement).value });
  return (
    <section data-testid="spend" data-state={data ? 'ready' : error ? 'error' : 'loading'}>
      <h1>Spend</h1>
      <form class="range" onSubmit={(event) => event.preventDefault()}>
        <label>
          From <input type="date" data-testid="range-from" value={range.from} max={range.to} onChange={set('from')} />
        </label>
        <label>
          To <input type="date" data-testid="range-to" value={range.to} min={range.from} onChange={set('to')} />
        </label>
        <span class="muted">UTC days, both included</span>
      </form>
      {!valid ? <p class="error">Pick a start day on or before the end day.</p> : null}
      <Status loaded={Boolean(data) || !valid} error={error} />
      {data ? (
        <>
          <div class="panel">
            <h2>
              Spend per day by group: <span data-testid="spend-total">{formatUsd(total)}</span>, {formatCount(requests)} requests, saved by
              cache <span data-testid="spend-cache-saved">{formatUsd(saved)}</span>
            </h2>
            {series.length === 0 ? (
              <Status loaded error={undefined} empty="No spend in this range." />
            ) : (
              <StackedBars days={days} series={series} testid="spend-chart" />
            )}
          </div>
          <div class="columns">
            {data.keys instanceof ApiError ? (
              <ErrorNote error={data.keys} />
            ) : (
              <TopTable title="Top keys" rows={data.keys.data} link testid="top-keys" />
            )}
            {data.teams instanceof ApiError ? (
              <ErrorNote error={data.teams} />
            ) : (
              <TopTable title="Top teams" rows={data.teams.data} testid="top-teams" />
            )}
          </div>
        </>
      ) : null}
    </section>
  );
}
