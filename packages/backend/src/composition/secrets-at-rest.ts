import type { Knex } from 'knex';
import type { Logger } from '../platform/logger/logger';
import { SecretBox } from '../platform/secrets/secret-box';
import type { SecretKey } from '../platform/secrets/secret-key';
import { dataDirSecretKey } from '../platform/secrets/secret-key-file';
import { sealStoredSecrets } from '../platform/secrets/stored-secrets';
import { checkpointSqlite } from '../platform/store/sqlite/sqlite-database';

/**
 * The start-up step right after the migrations: the key (configured, else the data dir's
 * secret.key, generated 0600 on first start), a check that every stored secret opens with it, and
 * plaintext rows from an older version sealed. Not a knex migration: migrations are static modules
 * that never see the key, and the check has to run on every start anyway. A wrong key throws a
 * SecretKeyError naming where the key came from. Logs the key's id and source, never the key.
 */
export async function openSecretsAtRest(
  config: { dataDir: string; secretKey?: SecretKey },
  db: Knex,
  logger: Logger,
): Promise<SecretBox> {
  let key = config.secretKey;
  if (key === undefined) {
    const own = dataDirSecretKey(config.dataDir);
    if (own.created) logger.info({ path: own.path }, 'generated the secret key: back it up with the database');
    key = own.key;
  }
  const box = new SecretBox(key);
  const sealed = await sealStoredSecrets(db, box);
  // secure_delete zeroed the plaintext in the pages; the WAL still holds their older copies until reset.
  if (sealed > 0) await checkpointSqlite(db);
  logger.info({ keyId: key.id, keySource: key.source, sealed }, 'secrets at rest ready');
  return box;
}
