import { useLayoutEffect } from 'preact/hooks';
import { get, type Overview, type Session } from '../api';
import { Figures, Status } from '../components';
import { formatCount, formatMs, formatRate, formatTime, formatUsd } from '../format';
import { usePoll } from '../hooks';

/**
 * Marked (Performance API, from the navigation's start) when the first figures are in the page,
 * and again once the frame that shows them was painted: the page-load time the browser test
 * measures, and what the browser's own tools show.
 */
const FIRST_FIGURES = 'dashboard:figures';
const FIRST_FIGURES_PAINTED = 'dashboard:figures-painted';

/** Spend now, and this edge's requests, errors and latency since it started (per replica). */
export function OverviewView({ session }: { session: Session }) {
  const { data, error } = usePoll((signal) => get<Overview>(session, '/admin/v1/overview', undefined, signal), [session]);
  useLayoutEffect(() => {
    if (!data || performance.getEntriesByName(FIRST_FIGURES).length > 0) return;
    performance.mark(FIRST_FIGURES);
    requestAnimationFrame(() => setTimeout(() => performance.mark(FIRST_FIGURES_PAINTED)));
  }, [data]);
  return (
    <section data-testid="overview" data-state={data ? 'ready' : error ? 'error' : 'loading'}>
      <h1>Overview</h1>
      <Status loaded={Boolean(data)} error={error} />
      {data ? (
        <>
          <h2>Spend</h2>
          <Figures
            items={[
              ['Spend today (UTC)', 'fig-spend-today', data.spend.today_usd, formatUsd],
              ['Spend this month', 'fig-spend-month', data.spend.month_usd, formatUsd],
              ['Billed requests today', 'fig-requests-today', data.spend.requests_today, formatCount],
              ['Cached prompt tokens today', 'fig-cached-today', data.spend.cached_tokens_today, formatCount],
              ['Saved by cache this month', 'fig-cache-saved-month', data.spend.cache_saved_month_usd, formatUsd],
            ]}
          />
          <h2>Traffic on this edge</h2>
          <p class="muted">Since {formatTime(data.since)}: the figures of the replica that answered, not of the whole cluster.</p>
          <Figures
            items={[
              ['Requests', 'fig-requests-total', data.requests.total, formatCount],
              ['Server errors (5xx)', 'fig-errors', data.requests.errors, formatCount],
              ['Refused (4xx)', 'fig-client-errors', data.requests.client_errors, formatCount],
              ['Error rate', 'fig-error-rate', data.requests.error_rate, formatRate],
              ['Latency p50', 'fig-latency-p50', data.latency_ms.p50, formatMs],
              ['Latency p95', 'fig-latency-p95', data.latency_ms.p95, formatMs],
              ['Gateway overhead p50', 'fig-overhead-p50', data.overhead_ms.p50, formatMs],
              ['Gateway overhead p95', 'fig-overhead-p95', data.overhead_ms.p95, formatMs],
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
