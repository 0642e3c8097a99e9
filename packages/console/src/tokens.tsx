import { useState } from 'preact/hooks';
import { apiTokens, createApiToken, revokeApiToken } from './api';
import { describeError } from './errors';
import { useResource } from './resource';
import { ActionButton, Status, When } from './widgets';

/** API tokens: list (never a token itself), create (the token shown once, here), revoke. */
export function ApiTokens() {
  const tokens = useResource('tokens', () => apiTokens().then((r) => r.tokens));
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; token: string } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const create = (event: Event) => {
    event.preventDefault();
    createApiToken(name.trim()).then(
      (token) => {
        setName('');
        setError(undefined);
        setCreated({ name: token.name, token: token.token });
        tokens.reload();
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  };
  return (
    <section class="panel" aria-labelledby="tokens-heading" data-needs="admin">
      <h2 id="tokens-heading">API tokens</h2>
      <Status error={tokens.error}>{tokens.data === undefined ? 'Loading…' : undefined}</Status>
      <ul class="plain">
        {tokens.data?.map((t) => (
          <li key={t.id} data-token={t.name}>
            <strong>{t.name}</strong> <code>{t.prefix}…</code>{' '}
            <span class="muted">
              created <When iso={t.created_at} />, last used <When iso={t.last_used_at} />
            </span>{' '}
            <ActionButton
              needs="admin"
              label="Revoke token"
              confirm={`Revoke ${t.name}? Everything using it (and every browser signed in with it) is refused at once.`}
              run={() => revokeApiToken(t.id).then(tokens.reload)}
            />
          </li>
        ))}
      </ul>
      {created !== undefined && (
        <div class="panel attention" role="status">
          <p>
            The token <strong>{created.name}</strong>, shown this once — copy it now:
          </p>
          <code class="secret" data-testid="new-token">
            {created.token}
          </code>{' '}
          <button type="button" class="secondary" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </div>
      )}
      <form class="inline" onSubmit={create}>
        <input
          aria-label="Token name"
          placeholder="Token name (who uses it)"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit" disabled={name.trim() === ''}>
          Create token
        </button>
      </form>
      <Status error={error} />
    </section>
  );
}
