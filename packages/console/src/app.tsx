import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from './api';
import { Board } from './board';
import { describeError } from './errors';
import { Inbox } from './inbox';
import { useLiveEvents } from './live';
import { Login } from './login';
import { type Role, setRole } from './role';
import { session } from './resource';
import { type Route, useRoute } from './route';
import { SessionsPage } from './sessions-page';
import { Settings } from './settings';
import { TaskPage } from './task-page';
import { ConnectionBanner, NotFound } from './widgets';

type Me = { name: string; role: Role; workspaces: string[] | null };
type Auth = { state: 'checking' } | { state: 'signed-in'; me: Me } | { state: 'signed-out'; note?: string };

export function App() {
  const route = useRoute();
  const [auth, setAuth] = useState<Auth>({ state: 'checking' });

  const check = () => {
    ok(api.GET('/api/me')).then(
      (me) => {
        setRole(me.role);
        setAuth({ state: 'signed-in', me });
      },
      (error: unknown) =>
        setAuth(
          error instanceof ApiError && error.status === 401
            ? { state: 'signed-out' }
            : { state: 'signed-out', note: describeError(error) },
        ),
    );
  };
  useEffect(check, []);
  session.onUnauthorized = () => setAuth({ state: 'signed-out' });

  if (auth.state === 'checking') return <p class="muted">Loading…</p>;
  if (auth.state === 'signed-out') {
    // The route stays in the address bar: after sign-in the same page opens (a deep link survives).
    return <Login note={auth.note} linkFailed={route.page === 'signin-link-invalid'} onSignedIn={check} />;
  }
  const signOut = () => {
    void ok(api.POST('/logout')).then(check);
  };
  return (
    <div class="shell" data-role={auth.me.role}>
      <header class="top">
        <a href="#/" class="brand">
          kandev
        </a>
        <nav aria-label="Pages">
          <a href="#/" aria-current={route.page === 'board' ? 'page' : undefined}>
            Board
          </a>
          <a href="#/sessions" aria-current={route.page === 'sessions' ? 'page' : undefined}>
            Sessions
          </a>
          <QuestionsLink current={route.page === 'questions'} />
          <a href="#/settings" aria-current={route.page === 'settings' ? 'page' : undefined}>
            Settings
          </a>
        </nav>
        <span class="muted" data-testid="whoami" title="the role of the token this browser signed in with">
          {auth.me.name} · {auth.me.role}
          {auth.me.workspaces === null ? '' : ` · ${auth.me.workspaces.length} workspace(s)`}
        </span>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <ConnectionBanner />
      <main>
        <Page route={route} />
      </main>
    </div>
  );
}

function Page(props: { route: Route }) {
  const { route } = props;
  switch (route.page) {
    case 'board':
      return <Board params={route.params} />;
    case 'task':
      return <TaskPage id={route.id} />;
    case 'sessions':
      return <SessionsPage params={route.params} />;
    case 'questions':
      return <Inbox />;
    case 'settings':
      return <Settings />;
    case 'signin-link-invalid':
      return <Board params={new URLSearchParams()} />;
    case 'not-found':
      return <NotFound what={`There is no page ${route.path} in the console.`} />;
  }
}

/** The inbox link with the number of questions waiting for the operator, live. */
function QuestionsLink(props: { current: boolean }) {
  const [count, setCount] = useState<number | undefined>();
  const read = () => {
    ok(api.GET('/api/questions', { params: { query: { state: 'pending', limit: 1 } } })).then(
      (r) => setCount(r.counts.pending),
      () => setCount(undefined),
    );
  };
  useEffect(read, []);
  useLiveEvents('type=question.created&type=question.answered&type=question.closed', read);
  return (
    <a href="#/questions" aria-current={props.current ? 'page' : undefined}>
      Questions
      {count !== undefined && count > 0 && (
        <span class="badge attention count" data-testid="questions-count">
          {count}
        </span>
      )}
    </a>
  );
}
