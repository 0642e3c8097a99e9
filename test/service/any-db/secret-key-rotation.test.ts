// `npm run secret-key:rotate`'s work over a real SQLite file: every stored secret re-sealed from the
// current key to the new one in one transaction; afterwards the new key opens them and the old one
// does not. A backend still answering on the configured port is refused before anything changes.
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  createLogger,
  createUnitOfWork,
  loadConfig,
  migrateToLatest,
  openSecretsAtRest,
  openTestDatabase,
  rotateSecretKey,
  sealStoredSecrets,
  SecretBox,
  SecretKey,
  SecretKeyError,
  SecretOpenError,
  testDatabaseEnv,
  writeNewSecretKeyFile,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const TOKEN = 'glpat-rotation-token-0123456789';
const ENV_VALUE = 'sk-rotation-api-key-9876543210';
const NOW = '2026-12-01T10:00:00.000Z';

describe('secret key rotation', () => {
  const cleanup = useCleanup();

  /** A stopped backend's data dir holding one credential and one profile env value, sealed. */
  async function seeded(env: Record<string, string> = {}): Promise<{ dataDir: string; oldKey: SecretKey }> {
    const dataDir = tempDir(cleanup);
    const db = await openTestDatabase(dataDir, cleanup, { empty: true });
    try {
      await migrateToLatest(db);
      const box = await openSecretsAtRest(
        loadConfig({ ...env, KANDEV_DATA_DIR: dataDir, ...(await testDatabaseEnv(dataDir)) }),
        db,
        createLogger('silent'),
      );
      const { read } = createUnitOfWork(db, box);
      await read.workspaces.insert({ id: 'w1', name: 'w1', createdAt: NOW });
      await read.workspaceCredentials.upsert({
        workspaceId: 'w1',
        provider: 'gitlab',
        token: TOKEN,
        username: 'bot',
        baseUrl: null,
        createdAt: NOW,
        updatedAt: NOW,
      });
      const profile = { id: 'p1', name: 'p1', command: 'c', args: [], supportsMcp: true, createdAt: NOW };
      await read.agentProfiles.insert({ ...profile, env: { API_KEY: ENV_VALUE } });
      return { dataDir, oldKey: box.key };
    } finally {
      await db.destroy();
    }
  }

  function newKeyFile(): { path: string; key: SecretKey } {
    const path = join(tempDir(cleanup), 'new.key');
    const key = SecretKey.generate(path);
    writeNewSecretKeyFile(path, key);
    return { path, key };
  }

  /** What a key can do with the data dir's stored secrets. */
  async function openWith(dataDir: string, key: SecretKey) {
    const db = await openTestDatabase(dataDir, cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    const { read } = createUnitOfWork(db, new SecretBox(key));
    const token = async () => (await read.workspaceCredentials.findSecret('w1', 'gitlab'))?.token;
    const env = async () => (await read.agentProfiles.findCommand('p1'))?.env;
    return { db, token, env };
  }

  test('the data dir key: re-sealed under the new key, secret.key replaced (0600); the old key opens nothing', async () => {
    const { dataDir, oldKey } = await seeded();
    const next = newKeyFile();
    const result = await rotateSecretKey(
      loadConfig({ KANDEV_DATA_DIR: dataDir, ...(await testDatabaseEnv(dataDir)), KANDEV_HTTP_PORT: '0' }),
      next.path,
    );
    expect(result).toEqual({
      rewritten: 2,
      oldKeyId: oldKey.id,
      newKeyId: next.key.id,
      replacedKeyFile: join(dataDir, 'secret.key'),
    });
    expect(readFileSync(join(dataDir, 'secret.key'), 'utf8')).toBe(next.key.toFileText());
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);

    const withNew = await openWith(dataDir, next.key);
    expect(await withNew.token()).toBe(TOKEN);
    expect(await withNew.env()).toEqual({ API_KEY: ENV_VALUE });
    expect(await sealStoredSecrets(withNew.db, new SecretBox(next.key))).toBe(0);
    const withOld = await openWith(dataDir, oldKey);
    await expect(withOld.token()).rejects.toBeInstanceOf(SecretOpenError);
    await expect(withOld.env()).rejects.toBeInstanceOf(SecretOpenError);
    await expect(sealStoredSecrets(withOld.db, new SecretBox(oldKey))).rejects.toBeInstanceOf(SecretKeyError);
  });

  test('a configured key file: re-sealed under the new key, and no secret.key is written', async () => {
    const old = newKeyFile();
    const env = { KANDEV_SECRET_KEY_FILE: old.path };
    const { dataDir } = await seeded(env);
    const next = newKeyFile();
    const result = await rotateSecretKey(
      loadConfig({ ...env, KANDEV_DATA_DIR: dataDir, ...(await testDatabaseEnv(dataDir)), KANDEV_HTTP_PORT: '0' }),
      next.path,
    );
    expect(result).toEqual({ rewritten: 2, oldKeyId: old.key.id, newKeyId: next.key.id });
    expect(() => statSync(join(dataDir, 'secret.key'))).toThrow();
    expect(await (await openWith(dataDir, next.key)).token()).toBe(TOKEN);
    await expect((await openWith(dataDir, old.key)).token()).rejects.toBeInstanceOf(SecretOpenError);
  });

  test('refused, nothing changed: a backend answers; the new key is the current one; a value it cannot open', async () => {
    const { dataDir, oldKey } = await seeded();
    const server = createServer((_req, res) => res.end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanup.defer(() => server.close());
    const port = String((server.address() as AddressInfo).port);
    const next = newKeyFile();
    const running = loadConfig({
      KANDEV_DATA_DIR: dataDir,
      ...(await testDatabaseEnv(dataDir)),
      KANDEV_HTTP_PORT: port,
    });
    await expect(rotateSecretKey(running, next.path)).rejects.toThrow(/stop it before rotating/);

    const same = join(tempDir(cleanup), 'same.key');
    writeNewSecretKeyFile(same, oldKey);
    const stopped = loadConfig({
      KANDEV_DATA_DIR: dataDir,
      ...(await testDatabaseEnv(dataDir)),
      KANDEV_HTTP_PORT: '0',
    });
    await expect(rotateSecretKey(stopped, same)).rejects.toThrow(/the new secret key is the current one/);

    // One value the current key cannot open (sealed under a third key): the whole rotation rolls back.
    const db = await openTestDatabase(dataDir, cleanup, { empty: true });
    try {
      await db('workspaces').insert({ id: 'w2', name: 'w2', created_at: NOW });
      const foreign = new SecretBox(SecretKey.generate('elsewhere')).seal('x');
      const row = { workspace_id: 'w2', provider: 'github', token: foreign, created_at: NOW, updated_at: NOW };
      await db('workspace_credentials').insert(row);
    } finally {
      await db.destroy();
    }
    await expect(rotateSecretKey(stopped, next.path)).rejects.toThrow(/cannot be decrypted with the secret key from/);

    expect(readFileSync(join(dataDir, 'secret.key'), 'utf8')).toBe(oldKey.toFileText());
    expect(await (await openWith(dataDir, oldKey)).token()).toBe(TOKEN);
    expect(await (await openWith(dataDir, oldKey)).env()).toEqual({ API_KEY: ENV_VALUE });
  });
});
