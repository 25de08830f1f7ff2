import { useState } from 'preact/hooks';
import { type BudgetPeriod, type KeyObject, type KeyWithSecret, request, type Session } from '../api';
import { ConfirmDialog, Dialog, ErrorNote, FormActions, SecretDialog } from '../components';
import { formatUsd } from '../format';
import { useFields } from '../hooks';
import type { ApiError } from '../api';

const PERIODS: { value: string; label: string }[] = [
  { value: '', label: 'Lifetime (no reset)' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly (from Monday)' },
  { value: 'monthly', label: 'Monthly' },
];

const periodOf = (value: string): BudgetPeriod => (value === 'daily' || value === 'weekly' || value === 'monthly' ? value : null);

/** A budget and its period, as form fields bound to `budget` and `period`. */
function BudgetFields({
  prefix,
  fields,
}: {
  prefix: string;
  fields: { bind: (name: 'budget' | 'period') => { name: string; value: string; onInput: (event: Event) => void } };
}) {
  return (
    <>
      <label>
        Budget (USD)
        <input
          type="number"
          min="0"
          step="any"
          required
          data-testid={prefix === 'budget' ? 'budget-value' : `${prefix}-budget`}
          {...fields.bind('budget')}
        />
      </label>
      <label>
        Period
        <select data-testid={`${prefix}-period`} {...fields.bind('period')}>
          {PERIODS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

type Open = 'budget' | 'rotate' | 'revoke' | undefined;

/** Update budget, rotate (the new secret shown once) and revoke, for one key. */
export function KeyActions({ session, apiKey, onChange }: { session: Session; apiKey: KeyObject; onChange: () => void }) {
  const [open, setOpen] = useState<Open>();
  const [secret, setSecret] = useState<string | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const budget = useFields({ budget: String(apiKey.budget_usd), period: apiKey.budget_period ?? '' });
  const rotation = useFields({ grace: '0' });
  const path = `/admin/v1/keys/${encodeURIComponent(apiKey.id)}`;
  const close = () => {
    setOpen(undefined);
    setError(undefined);
  };
  if (apiKey.revoked_at) return <span class="muted">revoked</span>;

  const saveBudget = async (event: Event) => {
    event.preventDefault();
    const body = { budget_usd: Number(budget.values.budget), budget_period: periodOf(budget.values.period) };
    try {
      await request(session, 'PATCH', path, { body });
      close();
      onChange();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };

  return (
    <span class="row-actions">
      <button
        type="button"
        data-testid="key-budget"
        onClick={() => {
          budget.reset();
          setOpen('budget');
        }}
      >
        Budget
      </button>
      <button
        type="button"
        data-testid="key-rotate"
        onClick={() => {
          rotation.reset();
          setOpen('rotate');
        }}
      >
        Rotate
      </button>
      <button type="button" class="danger" data-testid="key-revoke" onClick={() => setOpen('revoke')}>
        Revoke
      </button>
      {open === 'budget' ? (
        <Dialog title={`Budget of ${apiKey.name}`} testid="budget-dialog" onClose={close}>
          <form onSubmit={saveBudget}>
            <BudgetFields prefix="budget" fields={budget} />
            <p class="muted">Spent this period: {formatUsd(apiKey.spent_usd)}. A budget below it refuses the key's next calls.</p>
            <ErrorNote error={error} />
            <FormActions onCancel={close} submit="Save" testid="budget-save" />
          </form>
        </Dialog>
      ) : null}
      {open === 'rotate' ? (
        <ConfirmDialog
          title={`Rotate ${apiKey.name}`}
          confirm="Rotate"
          onClose={close}
          onConfirm={async () => {
            const body = { grace_seconds: Number(rotation.values.grace) || 0 };
            const rotated = await request<KeyWithSecret>(session, 'POST', `${path}/rotate`, { body });
            setOpen(undefined);
            setSecret(rotated.key);
            onChange();
          }}
        >
          <p>A new secret replaces {apiKey.hint}. The key keeps its id, budget, spend and team.</p>
          <label>
            The old secret keeps working for (seconds, at most 604800)
            <input type="number" min="0" max="604800" step="1" data-testid="rotate-grace" {...rotation.bind('grace')} />
          </label>
        </ConfirmDialog>
      ) : null}
      {open === 'revoke' ? (
        <ConfirmDialog
          title={`Revoke ${apiKey.name}`}
          confirm="Revoke"
          danger
          onClose={close}
          onConfirm={async () => {
            await request(session, 'DELETE', path);
            setOpen(undefined);
            onChange();
          }}
        >
          <p>Calls with {apiKey.hint} are refused from now on. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
      {secret ? <SecretDialog title={`New secret of ${apiKey.name}`} secret={secret} onClose={() => setSecret(undefined)} /> : null}
    </span>
  );
}

/** The create-key form; the new secret is shown once afterwards. */
export function CreateKey({ session, onCreated }: { session: Session; onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<KeyWithSecret | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const fields = useFields({ name: '', models: '*', budget: '10', period: '', team: '', rpm: '' });
  const submit = async (event: Event) => {
    event.preventDefault();
    const { values } = fields;
    const models = values.models
      .split(',')
      .map((model) => model.trim())
      .filter(Boolean);
    const body: Record<string, unknown> = {
      name: values.name.trim(),
      models: models.length > 0 ? models : ['*'],
      budget_usd: Number(values.budget),
      budget_period: periodOf(values.period),
    };
    if (values.team.trim()) body.team_id = values.team.trim();
    if (values.rpm.trim()) body.rpm = Number(values.rpm);
    try {
      const key = await request<KeyWithSecret>(session, 'POST', '/admin/v1/keys', { body });
      setOpen(false);
      setError(undefined);
      setCreated(key);
      onCreated();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };
  return (
    <>
      <button
        type="button"
        class="primary"
        data-testid="key-create"
        onClick={() => {
          fields.reset();
          setError(undefined);
          setOpen(true);
        }}
      >
        Create key
      </button>
      {open ? (
        <Dialog title="Create a key" testid="create-dialog" onClose={() => setOpen(false)}>
          <form onSubmit={submit}>
            <label>
              Name
              <input required maxLength={200} data-testid="create-name" {...fields.bind('name')} />
            </label>
            <label>
              Models (group ids or aliases, comma-separated; * for all)
              <input data-testid="create-models" {...fields.bind('models')} />
            </label>
            <BudgetFields prefix="create" fields={fields} />
            <label>
              Team id (optional)
              <input placeholder="team_…" data-testid="create-team" {...fields.bind('team')} />
            </label>
            <label>
              Requests per minute (optional)
              <input type="number" min="1" step="1" data-testid="create-rpm" {...fields.bind('rpm')} />
            </label>
            <ErrorNote error={error} />
            <FormActions onCancel={() => setOpen(false)} submit="Create" testid="create-submit" />
          </form>
        </Dialog>
      ) : null}
      {created ? (
        <SecretDialog title={`Secret of ${created.name} (${created.id})`} secret={created.key} onClose={() => setCreated(undefined)} />
      ) : null}
    </>
  );
}
