import { get, type Page, type Session, type SpendLogRow } from '../api';
import { Head, PagerControls, Status } from '../components';
import { formatCount, formatTime, formatUsd } from '../format';
import { usePager, usePoll } from '../hooks';
import { PAGE_SIZE } from './keys';

/** Tokens or seconds as the row's usage gives them, briefly. */
function usageText(usage: Record<string, unknown> | null): string {
  if (!usage) return '';
  return Object.entries(usage)
    .filter(([, value]) => typeof value === 'number' && value > 0)
    .map(([name, value]) => `${name.replace(/_/g, ' ')} ${formatCount(value as number)}`)
    .join(', ');
}

/**
 * A spend log, newest first, a page at a time: the admin log filtered to one key, or (signed in
 * with a key) the key's own log at /v1/usage/logs.
 */
export function SpendLog({ session, path, keyId }: { session: Session; path: string; keyId?: string }) {
  const pager = usePager();
  const { data, error } = usePoll(
    (signal) => get<Page<SpendLogRow>>(session, path, { key_id: keyId, limit: PAGE_SIZE, after: pager.after }, signal),
    [session, path, keyId, pager.after],
  );
  return (
    <div class="panel" data-testid="spend-log" data-state={data ? 'ready' : error ? 'error' : 'loading'}>
      <h2>Spend log</h2>
      <Status loaded={Boolean(data)} error={error} empty={data?.data.length === 0 ? 'No billed calls yet.' : undefined} />
      {data && data.data.length > 0 ? (
        <table>
          <Head columns={['When', 'Id', 'Group', 'Kind', 'Usage', '+Cost', '+Saved by cache']} />
          <tbody>
            {data.data.map((row) => (
              <tr key={row.id} data-testid="log-row" data-id={row.id}>
                <td>{formatTime(row.created_at)}</td>
                <td>
                  <code>{row.id}</code>
                </td>
                <td>{row.group}</td>
                <td>
                  {row.kind}
                  {row.estimated ? (
                    <span class="tag" data-testid="log-estimated" title="Billed on the gateway's own token count, not the upstream's">
                      estimated
                    </span>
                  ) : null}
                </td>
                <td>{usageText(row.usage)}</td>
                <td class="num" data-value={row.cost_usd}>
                  {formatUsd(row.cost_usd)}
                </td>
                <td class="num" data-testid="log-saved">
                  {row.cache_saved_usd > 0 ? formatUsd(row.cache_saved_usd) : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data ? <PagerControls pager={pager} hasMore={data.has_more} nextAfter={data.next_after} /> : null}
    </div>
  );
}
