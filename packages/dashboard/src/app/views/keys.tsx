import { get, type KeyObject, type Page, type Session } from '../api';
import { BudgetBar, Head, PagerControls, Status } from '../components';
import { formatTime } from '../format';
import { usePager, usePoll } from '../hooks';
import { CreateKey, KeyActions } from './key-actions';

export const PAGE_SIZE = 25;

export function keyState(key: KeyObject, now = Date.now() / 1000): string {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at !== null && key.expires_at <= now) return 'expired';
  return 'active';
}

/** Every key, a page at a time, with its budget and the actions an operator takes on it. */
export function KeysView({ session }: { session: Session }) {
  const pager = usePager();
  const { data, error, reload } = usePoll(
    (signal) => get<Page<KeyObject>>(session, '/admin/v1/keys', { limit: PAGE_SIZE, after: pager.after }, signal),
    [session, pager.after],
  );
  return (
    <section data-testid="keys" data-state={data ? 'ready' : error ? 'error' : 'loading'}>
      <div class="heading">
        <h1>Keys</h1>
        <CreateKey session={session} onCreated={reload} />
      </div>
      <Status loaded={Boolean(data)} error={error} empty={data?.data.length === 0 ? 'No keys yet.' : undefined} />
      {data && data.data.length > 0 ? (
        <table data-testid="keys-table" class="keys">
          <Head columns={['Key', 'Models', 'Budget', 'State', 'Actions']} />
          <tbody>
            {data.data.map((key) => (
              <tr key={key.id} data-testid="key-row" data-key-id={key.id} class={key.revoked_at ? 'revoked' : ''}>
                <td>
                  <a href={`#/keys/${encodeURIComponent(key.id)}`}>{key.name}</a>
                  <br />
                  <small class="muted">
                    {key.id} · {key.hint}
                    {key.team_id ? ` · ${key.team_id}` : ''}
                  </small>
                </td>
                <td>{key.models.join(', ')}</td>
                <td class="budget-cell">
                  <BudgetBar limit={key.budget_usd} spent={key.spent_usd} reserved={key.reserved_usd} resetsAt={key.resets_at} />
                  <small class="muted">{key.budget_period ?? 'lifetime'}</small>
                </td>
                <td>
                  {keyState(key)}
                  {key.expires_at ? <small class="muted"> until {formatTime(key.expires_at)}</small> : null}
                </td>
                <td>
                  <KeyActions session={session} apiKey={key} onChange={reload} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data ? <PagerControls pager={pager} hasMore={data.has_more} nextAfter={data.next_after} /> : null}
    </section>
  );
}
