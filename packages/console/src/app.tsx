import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from './api';
import { Board } from './board';
import { Login } from './login';
import { TaskPage } from './task-page';

/** Hash routes (`#/`, `#/tasks/<id>`): the backend serves one index.html and needs no fallback route. */
function useRoute(): string {
  const [route, setRoute] = useState(location.hash.replace(/^#/, '') || '/');
  useEffect(() => {
    const onChange = () => setRoute(location.hash.replace(/^#/, '') || '/');
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

type Auth = { state: 'checking' } | { state: 'signed-in' } | { state: 'signed-out'; hint: string };

export function App() {
  const route = useRoute();
  const [auth, setAuth] = useState<Auth>({ state: 'checking' });

  const check = () => {
    ok(api.GET('/api/workspaces', { params: { query: { limit: 1 } } })).then(
      () => setAuth({ state: 'signed-in' }),
      (error: unknown) =>
        setAuth(
          error instanceof ApiError && error.status === 401
            ? { state: 'signed-out', hint: error.message }
            : { state: 'signed-out', hint: String(error) },
        ),
    );
  };
  useEffect(check, []);

  if (auth.state === 'checking') return <p class="muted">Loading…</p>;
  if (auth.state === 'signed-out') {
    return <Login hint={auth.hint} linkFailed={route === '/signin-link-invalid'} onSignedIn={check} />;
  }
  const signOut = () => {
    void ok(api.POST('/logout')).then(check);
  };
  const task = /^\/tasks\/([^/]+)$/.exec(route);
  return (
    <div class="shell">
      <header class="top">
        <a href="#/" class="brand">
          kandev
        </a>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>{task?.[1] !== undefined ? <TaskPage id={decodeURIComponent(task[1])} /> : <Board />}</main>
    </div>
  );
}
