import { useMemo } from 'preact/hooks';
import { get, type Session, type Usage } from '../api';
import { StackedBars } from '../lazy-chart';
import { BudgetBar, Figure, SpendTable, Status } from '../components';
import { formatCount, formatTime, formatUsd } from '../format';
import { usePoll } from '../hooks';
import { SpendLog } from './spend-log';

/** Signed in with a key: that key's budget, spend and log, from /v1/usage and /v1/usage/logs only. */
export function UsageView({ session }: { session: Session }) {
  const { data, error } = usePoll((signal) => get<Usage>(session, '/v1/usage', undefined, signal), [session]);
  const days = useMemo(() => data?.daily.map((d) => d.date) ?? [], [data]);
  const series = useMemo(() => (data ? [{ label: 'Spend', values: data.daily.map((d) => d.spend_usd) }] : []), [data]);
  return (
    <section data-testid="usage" data-state={data ? 'ready' : error ? 'error' : 'loading'}>
      <h1>My usage</h1>
      <Status loaded={Boolean(data)} error={error} />
      {data ? (
        <>
          <p>
            <b data-testid="usage-key-name">{data.key.name}</b> <small class="muted">{data.key.id}</small> · {data.key.hint}
            {data.key.expires_at ? ` · expires ${formatTime(data.key.expires_at)}` : ''}
          </p>
          <BudgetBar
            limit={data.budget.limit_usd}
            spent={data.budget.spent_usd}
            reserved={data.budget.reserved_usd}
            resetsAt={data.budget.resets_at}
            testid="usage-budget"
          />
          <dl class="figures">
            <Figure
              label="Budget"
              testid="usage-limit"
              value={data.budget.limit_usd}
              shown={formatUsd(data.budget.limit_usd)}
              hint={data.budget.period ?? 'lifetime'}
            />
            <Figure label="Spent this period" testid="usage-spent" value={data.budget.spent_usd} shown={formatUsd(data.budget.spent_usd)} />
            <Figure
              label="Remaining"
              testid="usage-remaining"
              value={data.budget.remaining_usd}
              shown={formatUsd(data.budget.remaining_usd)}
            />
            <Figure
              label="Spent in all"
              testid="usage-lifetime"
              value={data.budget.lifetime_spent_usd}
              shown={formatUsd(data.budget.lifetime_spent_usd)}
            />
            <Figure
              label="Saved by cache this period"
              testid="usage-cache-saved"
              value={data.cache_saved_usd}
              shown={formatUsd(data.cache_saved_usd)}
              hint={`${formatCount(data.cached_tokens)} cached prompt tokens`}
            />
          </dl>
          {data.team ? (
            <p class="muted">
              Team {data.team.name}: {formatUsd(data.team.budget.spent_usd)} spent
              {data.team.budget.limit_usd === null ? '' : ` of ${formatUsd(data.team.budget.limit_usd)}`}.
            </p>
          ) : null}
          <div class="columns">
            <div class="panel">
              <h2>Last 30 days</h2>
              <StackedBars days={days} series={series} testid="usage-chart" height={200} />
            </div>
            <div class="panel">
              <h2>This period by model</h2>
              <SpendTable
                testid="usage-models"
                rows={data.by_model.map((row) => ({
                  id: row.model,
                  name: row.model,
                  spend: row.spent_usd,
                  requests: row.requests,
                  saved: row.cache_saved_usd,
                }))}
              />
              <p class="muted">May call: {data.models.available.join(', ') || 'nothing served'}</p>
            </div>
          </div>
          <SpendLog session={session} path="/v1/usage/logs" />
        </>
      ) : null}
    </section>
  );
}
