// Secrets at rest over a real SQLite file: rows written in plain text by a version before encryption
// are sealed by the start-up step (and nothing of them is left in the file or its WAL), a wrong key fails with a
// message naming where it came from, and the sealed values open only where they are used.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  createLogger,
  createUnitOfWork,
  type Database,
  databaseHolds,
  migrateToLatest,
  openSecretsAtRest,
  openTestDatabase,
  sealStoredSecrets,
  SecretBox,
  SecretKey,
  SecretKeyError,
} from '@kandev/backend/testing';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const TOKEN = 'glpat-legacy-plaintext-token-0123456789';
const ENV_VALUE = 'sk-legacy-plaintext-api-key-9876543210';
const NOW = '2026-12-01T10:00:00.000Z';
const logger = createLogger('silent');

/**
 * A data dir as the previous version left it: every migration applied (this change adds none: the
 * columns keep their types and now hold sealed text) and the secrets in plain text.
 */
async function legacyDataDir(dataDir: string, cleanup: Cleanup): Promise<void> {
  const db = await openTestDatabase(dataDir, cleanup, { empty: true });
  try {
    await migrateToLatest(db);
    await db('workspaces').insert({ id: 'w1', name: 'w1', created_at: NOW });
    await db('workspace_credentials').insert({
      workspace_id: 'w1',
      provider: 'gitlab',
      token: TOKEN,
      username: 'bot',
      base_url: null,
      created_at: NOW,
      updated_at: NOW,
    });
    await db('agent_profiles').insert({
      id: 'p1',
      name: 'agent',
      command: 'agent',
      args: '[]',
      env: JSON.stringify({ API_KEY: ENV_VALUE, EMPTY: '' }),
      supports_mcp: true,
      created_at: NOW,
    });
  } finally {
    await db.destroy();
  }
}

describe('secrets at rest', () => {
  const cleanup = useCleanup();

  async function open(dataDir: string): Promise<Database> {
    const db = await openTestDatabase(dataDir, cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    return db;
  }

  test('the first start seals plaintext rows of an older version; none of it stays in the file', async () => {
    const dataDir = tempDir(cleanup);
    await legacyDataDir(dataDir, cleanup);
    expect(await databaseHolds(dataDir, TOKEN)).toBe(true); // the fixture really is plain text
    expect(await databaseHolds(dataDir, ENV_VALUE)).toBe(true);

    const db = await open(dataDir);
    await migrateToLatest(db);
    const box = await openSecretsAtRest({ dataDir }, db, logger);
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(await sealStoredSecrets(db, box)).toBe(0); // idempotent: a second start seals nothing

    const { read } = createUnitOfWork(db, box);
    expect((await read.workspaceCredentials.findSecret('w1', 'gitlab'))?.token).toBe(TOKEN);
    expect((await read.agentProfiles.findCommand('p1'))?.env).toEqual({ API_KEY: ENV_VALUE, EMPTY: '' });
    const stored = await db('workspace_credentials').first('token');
    expect(String(stored?.token)).toMatch(/^enc:v1:[0-9a-f]{16}:/);
    // Still open: the start-up step checkpointed, so neither the database file nor the -wal file
    // keeps the page copies that held the plaintext (without it the file still has the old page).
    expect(await databaseHolds(dataDir, TOKEN)).toBe(false);
    expect(await databaseHolds(dataDir, ENV_VALUE)).toBe(false);
    await db.destroy();

    expect(await databaseHolds(dataDir, TOKEN)).toBe(false);
    expect(await databaseHolds(dataDir, ENV_VALUE)).toBe(false);
  });

  test('the same data dir opens again with its own secret.key', async () => {
    const dataDir = tempDir(cleanup);
    await legacyDataDir(dataDir, cleanup);
    const first = await open(dataDir);
    const box = await openSecretsAtRest({ dataDir }, first, logger);
    await first.destroy();
    const again = await open(dataDir);
    const reopened = await openSecretsAtRest({ dataDir }, again, logger);
    expect(reopened.key.id).toBe(box.key.id);
    expect((await createUnitOfWork(again, reopened).read.workspaceCredentials.findSecret('w1', 'gitlab'))?.token).toBe(
      TOKEN,
    );
  });

  test('a key that did not seal the rows fails with a message naming its source, and changes nothing', async () => {
    const dataDir = tempDir(cleanup);
    await legacyDataDir(dataDir, cleanup);
    const db = await open(dataDir);
    await openSecretsAtRest({ dataDir }, db, logger);
    const before = await db('workspace_credentials').first('token');

    const wrong = SecretKey.generate('KANDEV_SECRET_KEY');
    const refusal = openSecretsAtRest({ dataDir, secretKey: wrong }, db, logger);
    await expect(refusal).rejects.toBeInstanceOf(SecretKeyError);
    await expect(refusal).rejects.toThrow(/cannot be decrypted with the secret key from KANDEV_SECRET_KEY/);
    await expect(refusal).rejects.not.toThrow(TOKEN);
    expect(await db('workspace_credentials').first('token')).toEqual(before);
  });

  test('stores seal on write: REST-facing reads keep env names, only findCommand opens the values', async () => {
    const dataDir = tempDir(cleanup);
    const db = await open(dataDir);
    await migrateToLatest(db);
    const box = new SecretBox(SecretKey.generate('test'));
    const { read } = createUnitOfWork(db, box);
    await read.agentProfiles.insert({
      id: 'p',
      name: 'p',
      command: 'c',
      args: [],
      env: { API_KEY: ENV_VALUE },
      supportsMcp: true,
      createdAt: NOW,
    });
    const listed = await read.agentProfiles.findById('p');
    expect(Object.keys(listed?.env ?? {})).toEqual(['API_KEY']);
    expect(JSON.stringify(listed)).not.toContain(ENV_VALUE);
    expect((await read.agentProfiles.findCommand('p'))?.env).toEqual({ API_KEY: ENV_VALUE });
  });
});
