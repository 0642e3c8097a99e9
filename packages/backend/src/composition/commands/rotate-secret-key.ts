import { renameSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config';
import { connectableHost } from '../../platform/net/connectable-host';
import { SecretBox } from '../../platform/secrets/secret-box';
import type { SecretKey } from '../../platform/secrets/secret-key';
import {
  readSecretKeyFile,
  SECRET_KEY_FILE_NAME,
  SecretKeyError,
  writeNewSecretKeyFile,
} from '../../platform/secrets/secret-key-file';
import { rotateStoredSecrets } from '../../platform/secrets/stored-secrets';
import { createDatabase } from '../../platform/store/database';
import { MIGRATION_SOURCE } from '../../platform/store/migration-source';

// `npm run secret-key:rotate -- --new-key-file <path>` (secret-key-rotate.ts): re-seals every stored
// secret from the current key (the backend's own configuration) to a new one. The backend must be
// stopped: a running one would go on sealing new values with the old key.

export interface RotationResult {
  /** Values re-sealed. */
  rewritten: number;
  oldKeyId: string;
  newKeyId: string;
  /** Set when the data dir's own secret.key was the current key and now holds the new one. */
  replacedKeyFile?: string;
}

/** A backend answering /healthz on the configured port (port 0: nothing to probe). */
export async function backendAnswers(http: Config['http']): Promise<boolean> {
  if (http.port === 0) return false;
  try {
    const url = `http://${connectableHost(http.host)}:${http.port}/healthz`;
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

/** Writes the new key over `<data dir>/secret.key` (0600, by rename, so it is never half written). */
function replaceDataDirKey(path: string, next: SecretKey): void {
  const staged = `${path}.new`;
  try {
    unlinkSync(staged);
  } catch {
    // nothing staged before
  }
  writeNewSecretKeyFile(staged, next);
  renameSync(staged, path);
}

export async function rotateSecretKey(config: Config, newKeyFile: string): Promise<RotationResult> {
  const ownKeyFile = join(resolve(config.dataDir), SECRET_KEY_FILE_NAME);
  // The current key exactly as the backend would pick it, except that none is ever generated here.
  const current = new SecretBox(config.secretKey ?? readSecretKeyFile(ownKeyFile));
  const next = new SecretBox(readSecretKeyFile(newKeyFile));
  if (await backendAnswers(config.http)) {
    throw new SecretKeyError(`a backend answers on port ${config.http.port}: stop it before rotating the secret key`);
  }
  const db = createDatabase(config.dataDir, config.databaseUrl);
  try {
    const [, pending] = (await db.migrate.list({ migrationSource: MIGRATION_SOURCE })) as [unknown[], unknown[]];
    if (pending.length > 0) {
      throw new SecretKeyError(
        "the database is not at this version's schema: start the backend once, stop it, then rotate",
      );
    }
    const rewritten = await rotateStoredSecrets(db, current, next);
    const result: RotationResult = { rewritten, oldKeyId: current.key.id, newKeyId: next.key.id };
    if (config.secretKey === undefined) {
      replaceDataDirKey(ownKeyFile, next.key);
      result.replacedKeyFile = ownKeyFile;
    }
    return result;
  } finally {
    await db.destroy();
  }
}
