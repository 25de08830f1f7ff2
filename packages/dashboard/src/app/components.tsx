import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from './api';
import { formatCount, formatTime, formatUsd } from './format';
import type { Pager } from './hooks';

/** One figure: its label, the value as shown, and the raw value in data-value (for tests and copy). */
export function Figure(props: { label: string; testid: string; value: number | null; shown: string; hint?: string }) {
  return (
    <div class="figure">
      <dt>{props.label}</dt>
      <dd data-testid={props.testid} data-value={props.value === null ? '' : String(props.value)}>
        {props.shown}
      </dd>
      {props.hint ? <dd class="hint">{props.hint}</dd> : null}
    </div>
  );
}

/** A figure as data: label, test id, value (null: not measured), how to write it. */
export type FigureItem = [label: string, testid: string, value: number | null, format: (value: number) => string];

export function Figures({ items }: { items: FigureItem[] }) {
  return (
    <dl class="figures">
      {items.map(([label, testid, value, format]) => (
        <Figure key={testid} label={label} testid={testid} value={value} shown={value === null ? '—' : format(value)} />
      ))}
    </dl>
  );
}

export function ErrorNote({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert" data-testid="error">
      {error.message} <code>{error.code}</code>
    </p>
  );
}

/** What a polled view shows besides its data: the error, `Loading…` before the first answer, and `empty` for an empty list. */
export function Status({ loaded, error, empty }: { loaded: boolean; error: ApiError | undefined; empty?: string | undefined }) {
  return (
    <>
      <ErrorNote error={error} />
      {!loaded && !error ? (
        <p class="muted" aria-busy="true">
          Loading…
        </p>
      ) : null}
      {empty ? <p class="muted empty">{empty}</p> : null}
    </>
  );
}

/** A table's header row; a name starting with `+` is a number column (right-aligned). */
export function Head({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          column.startsWith('+') ? (
            <th scope="col" class="num" key={column}>
              {column.slice(1)}
            </th>
          ) : (
            <th scope="col" key={column}>
              {column}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** One name's row of a SpendTable; `saved` (what cached prompt tokens saved) adds its column. */
export interface SpendTableRow {
  id: string;
  name: ComponentChildren;
  spend: number;
  requests: number;
  saved?: number;
}

/** Spend and requests per name (a key, a team, a model), and what the prompt cache saved when given. */
export function SpendTable(props: { testid: string; rows: SpendTableRow[] }) {
  const saved = props.rows.some((row) => row.saved !== undefined);
  return (
    <table data-testid={props.testid}>
      <Head columns={saved ? ['Name', '+Spend', '+Requests', '+Saved by cache'] : ['Name', '+Spend', '+Requests']} />
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.id} data-id={row.id}>
            <td>{row.name}</td>
            <td class="num" data-value={row.spend}>
              {formatUsd(row.spend)}
            </td>
            <td class="num">{formatCount(row.requests)}</td>
            {saved ? <td class="num">{formatUsd(row.saved ?? 0)}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A dialog form's buttons: cancel, and the submit. */
export function FormActions(props: { onCancel: () => void; submit: string; testid: string; danger?: boolean; busy?: boolean }) {
  return (
    <div class="actions">
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
      <button type="submit" class={props.danger ? 'danger' : 'primary'} data-testid={props.testid} disabled={props.busy}>
        {props.submit}
      </button>
    </div>
  );
}

/** Spent, reserved and remaining of a budget as one bar, with the figures beside it. */
export function BudgetBar(props: { limit: number; spent: number; reserved: number; resetsAt: number | null; testid?: string }) {
  const { limit, spent, reserved } = props;
  const remaining = Math.max(0, limit - spent - reserved);
  const share = (part: number) => (limit > 0 ? Math.min(100, (part / limit) * 100) : part > 0 ? 100 : 0);
  const spentShare = share(spent);
  const reservedShare = Math.min(100 - spentShare, share(reserved));
  const over = spent + reserved > limit;
  return (
    <div class="budget" data-testid={props.testid ?? 'budget'}>
      {/* The bar is a picture of the figures below it, which say the same in words. */}
      <div class={over ? 'bar over' : 'bar'} aria-hidden="true">
        <span class="spent" style={{ width: `${spentShare}%` }} />
        <span class="reserved" style={{ width: `${reservedShare}%` }} />
      </div>
      <div class="budget-figures">
        <span>
          spent <b data-field="spent">{formatUsd(spent)}</b>
        </span>
        <span>
          reserved <b data-field="reserved">{formatUsd(reserved)}</b>
        </span>
        <span>
          remaining <b data-field="remaining">{formatUsd(remaining)}</b> of {formatUsd(limit)}
        </span>
        <span>
          resets <b data-field="resets">{props.resetsAt ? formatTime(props.resetsAt) : 'never'}</b>
        </span>
      </div>
    </div>
  );
}

export function PagerControls({ pager, hasMore, nextAfter }: { pager: Pager; hasMore: boolean; nextAfter: string | null }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" data-testid="pager-prev" disabled={pager.page <= 1} onClick={pager.previous}>
        ← Previous
      </button>
      <span data-testid="pager-page">Page {pager.page}</span>
      <button type="button" data-testid="pager-next" disabled={!hasMore || !nextAfter} onClick={() => pager.next(nextAfter)}>
        Next →
      </button>
    </nav>
  );
}

/** A modal dialog (the platform's own: focus kept inside, Escape closes). */
export function Dialog(props: { title: string; testid: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} data-testid={props.testid} aria-label={props.title} onClose={props.onClose}>
      <h2>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/** A new secret, shown this once: gone from the page when the dialog closes. */
export function SecretDialog(props: { title: string; secret: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied(true);
    } catch {
      // No clipboard here: select the text for a manual copy.
      input.current?.select();
    }
  };
  return (
    <Dialog title={props.title} testid="secret-dialog" onClose={props.onClose}>
      <p>This secret is shown once. Copy it now: the gateway keeps only its hash.</p>
      <div class="secret">
        <input
          ref={input}
          readOnly
          data-testid="secret-value"
          value={props.secret}
          aria-label="Secret"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" data-testid="secret-copy" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <div class="actions">
        <button type="button" class="primary" data-testid="secret-close" onClick={props.onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirm: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      await props.onConfirm();
    } catch (failure) {
      setError(failure as ApiError);
      setBusy(false);
    }
  };
  return (
    <Dialog title={props.title} testid="confirm-dialog" onClose={props.onClose}>
      <form onSubmit={submit}>
        {props.children}
        <ErrorNote error={error} />
        <FormActions onCancel={props.onClose} submit={props.confirm} testid="confirm-ok" danger={props.danger ?? false} busy={busy} />
      </form>
    </Dialog>
  );
}
