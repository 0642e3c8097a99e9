import { useState } from 'preact/hooks';
import { api, ApiError, ok } from './api';
import { describeError } from './errors';

/**
 * The sign-in page. It never says where the token is kept (whoever sees this page is not yet trusted);
 * the operator has the backend's ready line for that.
 */
export function Login(props: { note: string | undefined; linkFailed: boolean; onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    ok(api.POST('/login', { body: { token: token.trim() } })).then(
      () => {
        setToken('');
        // The address keeps its route: the page asked for before signing in opens now.
        if (location.hash === '#/signin-link-invalid') location.hash = '#/';
        props.onSignedIn();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(
          failure instanceof ApiError && failure.status === 401
            ? 'That token is not valid, or it was revoked.'
            : describeError(failure),
        );
      },
    );
  };

  return (
    <main class="login">
      <h1>kandev console</h1>
      {props.linkFailed && <p class="error">That sign-in link is used, expired or unknown: sign in with the token.</p>}
      {props.note !== undefined && <p class="error">{props.note}</p>}
      <form onSubmit={submit}>
        <label for="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          required
        />
        <button type="submit" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
      </form>
      {error !== undefined && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="muted">
        Paste an API token: the backend's ready line says where it keeps its own, or print a one-time sign-in link with{' '}
        <code>npx kandev console</code>. The console keeps the token in an HttpOnly cookie for this site only.
      </p>
    </main>
  );
}
