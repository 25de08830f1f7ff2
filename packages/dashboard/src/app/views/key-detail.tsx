import { get, type KeyObject, type Session } from '../api';
import { BudgetBar, Figure, Status } from '../components';
import { formatTime, formatUsd } from '../format';
import { usePoll } from '../hooks';
import { KeyActions } from './key-actions';
import { keyState } from './keys';
import { SpendLog } from './spend-log';

/** One key: its settings, budget and spend, the actions, and its spend log. */
export function KeyDetailView({ session, id }: { session: Session; id: string }) {
  const {
    data: key,
    error,
    reload,
  } = usePoll((signal) => get<KeyObject>(session, `/admin/v1/keys/${encodeURIComponent(id)}`, undefined, signal), [session, id]);
  const remaining = key ? Math.max(0, key.budget_usd - key.spent_usd - key.reserved_usd) : 0;
  return (
    <section data-testid="key-detail" data-state={key ? 'ready' : error ? 'error' : 'loading'}>
      <p>
        <a href="#/keys">← Keys</a>
      </p>
      <Status loaded={Boolean(key)} error={error} />
      {key ? (
        <>
          <div class="heading">
            <h1>
              {key.name} <small class="muted">{key.id}</small>
            </h1>
            <KeyActions session={session} apiKey={key} onChange={reload} />
          </div>
          <BudgetBar
            limit={key.budget_usd}
            spent={key.spent_usd}
            reserved={key.reserved_usd}
            resetsAt={key.resets_at}
            testid="detail-budget"
          />
          <dl class="figures">
            <Figure
              label="Budget"
              testid="detail-budget-usd"
              value={key.budget_usd}
              shown={formatUsd(key.budget_usd)}
              hint={key.budget_period ?? 'lifetime'}
            />
            <Figure label="Spent this period" testid="detail-spent" value={key.spent_usd} shown={formatUsd(key.spent_usd)} />
            <Figure label="Reserved" testid="detail-reserved" value={key.reserved_usd} shown={formatUsd(key.reserved_usd)} />
            <Figure label="Remaining" testid="detail-remaining" value={remaining} shown={formatUsd(remaining)} />
            <Figure
              label="Spent in all"
              testid="detail-lifetime"
              value={key.lifetime_spent_usd}
              shown={formatUsd(key.lifetime_spent_usd)}
            />
          </dl>
          <dl class="facts">
            <dt>State</dt>
            <dd data-testid="detail-state">{keyState(key)}</dd>
            <dt>Secret</dt>
            <dd>{key.hint}</dd>
            <dt>Models</dt>
            <dd>{key.models.join(', ')}</dd>
            <dt>Team</dt>
            <dd>{key.team_id ?? '—'}</dd>
            <dt>Rate limits</dt>
            <dd>
              {key.rpm ?? 'no'} requests and {key.tpm ?? 'no'} tokens a minute
            </dd>
            <dt>Period</dt>
            <dd>
              from {formatTime(key.period_start)}, resets {key.resets_at ? formatTime(key.resets_at) : 'never'}
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(key.created_at)}</dd>
            <dt>Expires</dt>
            <dd>{key.expires_at ? formatTime(key.expires_at) : 'never'}</dd>
            <dt>Rotated</dt>
            <dd>
              {key.rotated_at ? formatTime(key.rotated_at) : 'never'}
              {key.previous_secret_expires_at ? ` (old secret works until ${formatTime(key.previous_secret_expires_at)})` : ''}
            </dd>
            {key.revoked_at ? (
              <>
                <dt>Revoked</dt>
                <dd>{formatTime(key.revoked_at)}</dd>
              </>
            ) : null}
            {Object.keys(key.metadata).length > 0 ? (
              <>
                <dt>Metadata</dt>
                <dd>
                  {Object.entries(key.metadata)
                    .map(([name, value]) => `${name}=${value}`)
                    .join(', ')}
                </dd>
              </>
            ) : null}
          </dl>
          <SpendLog session={session} path="/admin/v1/spend/logs" keyId={key.id} />
        </>
      ) : null}
    </section>
  );
}
