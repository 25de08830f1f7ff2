import { useEffect, useState } from 'preact/hooks';
import { type ApiError, dashboardConfig, get, type Session, type SessionKind } from '../api';
import { ErrorNote } from '../components';

/**
 * Sign-in with the admin token (every view) or an API key (that key's own usage). The secret is
 * checked with one call before it is kept (sessionStorage, this tab only). Without ADMIN_TOKEN on
 * the gateway only a key can sign in.
 */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (session: Session) => void; notice: string | undefined }) {
  const [admin, setAdmin] = useState<boolean | undefined>();
  const [kind, setKind] = useState<SessionKind>('admin');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    dashboardConfig().then(({ admin: on }) => {
      setAdmin(on);
      if (!on) setKind('key');
    });
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const session: Session = { kind, secret: secret.trim() };
    setBusy(true);
    setError(undefined);
    try {
      if (kind === 'admin') await get(session, '/admin/v1/keys', { limit: 1 });
      else await get(session, '/v1/usage');
      setSecret('');
      onSignedIn(session);
    } catch (failure) {
      setError(failure as ApiError);
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <form data-testid="signin-form" onSubmit={submit} aria-labelledby="signin-title">
        <h1 id="signin-title">Gateway dashboard</h1>
        {notice ? (
          <p class="error" role="alert">
            {notice}
          </p>
        ) : null}
        <fieldset>
          <legend>Sign in with</legend>
          <label class={admin === false ? 'disabled' : ''}>
            <input
              type="radio"
              name="kind"
              value="admin"
              data-testid="signin-kind-admin"
              checked={kind === 'admin'}
              disabled={admin === false}
              onChange={() => setKind('admin')}
            />{' '}
            The admin token: every key, team and figure
          </label>
          <label>
            <input
              type="radio"
              name="kind"
              value="key"
              data-testid="signin-kind-key"
              checked={kind === 'key'}
              onChange={() => setKind('key')}
            />{' '}
            An API key: that key's own usage
          </label>
          {admin === false ? (
            <p class="muted" data-testid="signin-admin-off">
              The admin API is off on this gateway (ADMIN_TOKEN is not set): only a key can sign in.
            </p>
          ) : null}
        </fieldset>
        <label>
          {kind === 'admin' ? 'Admin token' : 'API key (sk-…)'}
          <input
            type="password"
            required
            autocomplete="off"
            spellcheck={false}
            data-testid="signin-secret"
            value={secret}
            onInput={(event) => setSecret(event.currentTarget.value)}
          />
        </label>
        <ErrorNote error={error} />
        <button type="submit" class="primary" data-testid="signin-submit" disabled={busy || !secret.trim()}>
          Sign in
        </button>
        <p class="muted small">
          The secret stays in this tab (sessionStorage) until you sign out or close it. It is sent only in the Authorization header.
        </p>
      </form>
    </main>
  );
}
