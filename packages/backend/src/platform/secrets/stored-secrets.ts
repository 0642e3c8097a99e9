import type { Knex } from 'knex';
import { z } from 'zod';
import { isSealed, type SecretBox, SecretOpenError } from './secret-box';
import { SecretKeyError } from './secret-key-file';

// Every secret the database holds, in one place: workspace_credentials.token and each value of
// agent_profiles.env (the names stay readable: REST lists them). The start-up step and key rotation
// walk exactly these, inside one transaction each.

const EnvValuesSchema = z.record(z.string(), z.string());

function parseEnv(raw: unknown): Record<string, string> {
  const parsed = EnvValuesSchema.safeParse(typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {}));
  if (!parsed.success) throw new SecretKeyError('agent_profiles.env holds something other than names and values');
  return parsed.data;
}

/** Rewrites every stored secret value through `rewrite` (unchanged values are not written). */
async function rewriteStoredSecrets(trx: Knex.Transaction, rewrite: (value: string) => string): Promise<number> {
  let written = 0;
  const credentials = await trx<{ workspace_id: string; provider: string; token: string }>(
    'workspace_credentials',
  ).select('workspace_id', 'provider', 'token');
  for (const row of credentials) {
    const token = rewrite(row.token);
    if (token === row.token) continue;
    await trx('workspace_credentials')
      .where({ workspace_id: row.workspace_id, provider: row.provider })
      .update({ token });
    written += 1;
  }
  const profiles = await trx<{ id: string; env: unknown }>('agent_profiles').select('id', 'env');
  for (const row of profiles) {
    const env = parseEnv(row.env);
    const next = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, rewrite(value)]));
    if (Object.keys(env).every((name) => env[name] === next[name])) continue;
    await trx('agent_profiles')
      .where({ id: row.id })
      .update({ env: JSON.stringify(next) });
    written += Object.keys(env).filter((name) => env[name] !== next[name]).length;
  }
  return written;
}

function keyFailure(box: SecretBox, error: SecretOpenError): SecretKeyError {
  return new SecretKeyError(
    `stored secrets cannot be decrypted with the secret key from ${box.key.source}: ${error.message}. ` +
      'Start with the key they were sealed with (KANDEV_SECRET_KEY, KANDEV_SECRET_KEY_FILE or <data dir>/secret.key; docs/security.md)',
  );
}

/**
 * The start-up step right after the migrations: checks that every sealed value opens with the key
 * (a wrong key fails the start here, before anything runs) and seals the plaintext ones (rows written
 * by a version before encryption), in one transaction. Idempotent; resolves how many values it sealed.
 */
export async function sealStoredSecrets(db: Knex, box: SecretBox): Promise<number> {
  try {
    return await db.transaction((trx) =>
      rewriteStoredSecrets(trx, (value) => {
        if (!isSealed(value)) return box.seal(value);
        box.open(value);
        return value;
      }),
    );
  } catch (error) {
    if (error instanceof SecretOpenError) throw keyFailure(box, error);
    throw error;
  }
}

/**
 * Key rotation: every stored secret re-sealed from the current key to the new one in one transaction
 * (all or nothing). Plaintext values are sealed under the new key. Resolves how many values it wrote.
 */
export async function rotateStoredSecrets(db: Knex, current: SecretBox, next: SecretBox): Promise<number> {
  if (current.key.id === next.key.id) throw new SecretKeyError('the new secret key is the current one');
  try {
    return await db.transaction((trx) => rewriteStoredSecrets(trx, (value) => next.seal(current.reveal(value))));
  } catch (error) {
    if (error instanceof SecretOpenError) throw keyFailure(current, error);
    throw error;
  }
}
