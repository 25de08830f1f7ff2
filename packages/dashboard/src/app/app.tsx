import { useEffect, useState } from 'preact/hooks';
import { loadSession, type Session, saveSession, whenSignedOut } from './api';
import { navigate, useRoute } from './hooks';
import { KeyDetailView } from './views/key-detail';
import { KeysView } from './views/keys';
import { OverviewView } from './views/overview';
import { SignIn } from './views/signin';
import { SpendView } from './views/spend';
import { UpstreamsView } from './views/upstreams';
import { UsageView } from './views/usage';
import { VideosView } from './views/videos';

const ADMIN_VIEWS = [
  { path: 'overview', label: 'Overview' },
  { path: 'spend', label: 'Spend' },
  { path: 'keys', label: 'Keys' },
  { path: 'videos', label: 'Videos' },
  { path: 'upstreams', label: 'Upstreams' },
] as const;
const KEY_VIEWS = [{ path: 'usage', label: 'My usage' }] as const;

function AdminView({ session, route }: { session: Session; route: string[] }) {
  const [view, id] = route;
  switch (view) {
    case 'spend':
      return <SpendView session={session} />;
    case 'keys':
      return id ? <KeyDetailView session={session} id={id} key={id} /> : <KeysView session={session} />;
    case 'videos':
      return <VideosView session={session} />;
    case 'upstreams':
      return <UpstreamsView session={session} />;
    default:
      return <OverviewView session={session} />;
  }
}

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [notice, setNotice] = useState<string | undefined>();
  const route = useRoute();
  const signOut = (message?: string) => {
    saveSession(undefined);
    setSession(undefined);
    setNotice(message);
  };
  useEffect(() => {
    whenSignedOut((error) => signOut(`Signed out: the gateway refused the credential (${error.code}).`));
  }, []);

  // A key's session has one view; an admin's starts at the overview.
  const views = session?.kind === 'key' ? KEY_VIEWS : ADMIN_VIEWS;
  const current = route[0] ?? '';
  const known = views.some((view) => view.path === current);
  useEffect(() => {
    if (session && !known) navigate(`#/${views[0].path}`);
  }, [session, known, views]);

  if (!session) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(next) => {
          saveSession(next);
          setNotice(undefined);
          setSession(next);
        }}
      />
    );
  }
  return (
    <>
      <header>
        <a class="brand" href={`#/${views[0].path}`}>
          Gateway
        </a>
        <nav aria-label="Views">
          {views.map((view) => (
            <a
              key={view.path}
              href={`#/${view.path}`}
              data-testid={`nav-${view.path}`}
              aria-current={current === view.path ? 'page' : undefined}
            >
              {view.label}
            </a>
          ))}
        </nav>
        <span class="who" data-testid="signed-in-as">
          {session.kind === 'admin' ? 'Admin' : 'API key'}
        </span>
        <button type="button" data-testid="signout" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main>
        {!known ? null : session.kind === 'key' ? <UsageView session={session} /> : <AdminView session={session} route={route} />}
      </main>
      <footer class="muted">Figures refresh every 10 s while this tab is visible.</footer>
    </>
  );
}
