import { get, type Page, type Session, type Upstream } from '../api';
import { Head, Status } from '../components';
import { formatCount, formatTime } from '../format';
import { usePoll } from '../hooks';

const STATES: Record<Upstream['state'], string> = {
  healthy: 'Healthy',
  cooling_down: 'Cooling down',
  rate_limited: 'Rate limited',
};

/** Each deployment as this replica's router sees it: state, failures in a row, recent errors. */
export function UpstreamsView({ session }: { session: Session }) {
  const { data, error } = usePoll((signal) => get<Page<Upstream>>(session, '/admin/v1/upstreams', undefined, signal), [session]);
  return (
    <section data-testid="upstreams" data-state={data ? 'ready' : error ? 'error' : 'loading'}>
      <h1>Upstream health</h1>
      <p class="muted">
        As the chat and video services that answered see their deployments; a cooled-down deployment is skipped until the time shown.
      </p>
      <Status loaded={Boolean(data)} error={error} empty={data?.data.length === 0 ? 'No deployment is served.' : undefined} />
      {data && data.data.length > 0 ? (
        <table data-testid="upstreams-table">
          <Head columns={['Group', 'Deployment', 'Provider', 'State', '+Failures in a row', '+Errors (5 min)', 'Last error']} />
          <tbody>
            {data.data.map((upstream) => (
              <tr key={`${upstream.kind}/${upstream.group}/${upstream.deployment}`} data-testid="upstream-row" data-state={upstream.state}>
                <td>
                  {upstream.group} <small class="muted">{upstream.kind}</small>
                </td>
                <td>
                  <code>{upstream.deployment}</code>
                </td>
                <td>{upstream.provider}</td>
                <td>
                  <span class={`status ${upstream.state}`}>{STATES[upstream.state] ?? upstream.state}</span>
                  {upstream.until ? <small class="muted"> until {formatTime(upstream.until)}</small> : null}
                </td>
                <td class="num">{formatCount(upstream.consecutive_failures)}</td>
                <td class="num">{formatCount(upstream.errors_5m)}</td>
                <td>{upstream.last_error ? `${upstream.last_error.kind}, ${formatTime(upstream.last_error.at)}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
