import { useState } from 'preact/hooks';
import { api, ApiError, ok } from './api';

/** Where the token is, from the backend's 401 message ("... with the token in <path>"). */
function tokenLocation(hint: string): string | undefined {
  return /the token in (.+)$/.exec(hint)?.[1];
}

export function Login(props: { hint: string; linkFailed: boolean; onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const where = tokenLocation(props.hint);

  const submit = (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    ok(api.POST('/login', { body: { token: token.trim() } })).then(
      () => {
        setToken('');
        if (location.hash !== '' && location.hash !== '#/') location.hash = '#/';
        props.onSignedIn();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof ApiError ? failure.message : String(failure));
      },
    );
  };

  return (
    <main class="login">
      <h1>kandev console</h1>
      {props.linkFailed && <p class="error">That sign-in link is used, expired or unknown: sign in with the token.</p>}
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
        {where !== undefined ? (
          <>
            The token is in <code>{where}</code> (the backend's ready line names it).
          </>
        ) : (
          props.hint
        )}{' '}
        The console keeps it in an HttpOnly cookie for this site only.
      </p>
    </main>
  );
}
