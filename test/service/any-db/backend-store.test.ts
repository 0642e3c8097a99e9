// The backend's knex stores on a fresh database per test (a SQLite file; PostgreSQL in service-pg) (migrations, constraints, JSON/boolean columns).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LaunchConfig } from '@kandev/protocol';
import {
  type AgentSession,
  createUnitOfWork,
  type Database,
  DATABASE_FILE_NAME,
  migrateToLatest,
  onPostgres,
  openTestDatabase,
  type Repository,
  repositoryRow,
  type Task,
  taskRow,
  TEST_SECRETS,
  type UnitOfWork,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const NOW = '2026-08-09T10:00:00.000Z';
// Matched by code, not with toThrow: better-sqlite3 binds its error class once per process, so in a
// jest worker that already ran another suite its errors come from another realm and fail instanceof.
const FOREIGN_KEY = { code: onPostgres() ? '23503' : 'SQLITE_CONSTRAINT_FOREIGNKEY' };
const UNIQUE = { code: onPostgres() ? '23505' : 'SQLITE_CONSTRAINT_UNIQUE' };
const PRIMARY_KEY = { code: onPostgres() ? '23505' : 'SQLITE_CONSTRAINT_PRIMARYKEY' };

describe('backend stores', () => {
  const cleanup = useCleanup();

  async function open(
    dataDir = join(tempDir(cleanup), 'nested', 'data'),
  ): Promise<{ db: Database; uow: UnitOfWork; dataDir: string }> {
    const db = await openTestDatabase(dataDir, cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
    return { db, uow: createUnitOfWork(db, TEST_SECRETS), dataDir };
  }

  const workspace = (id: string) => ({ id, name: `ws ${id}`, createdAt: NOW });
  const repository = (id: string, workspaceId: string, over: Partial<Repository> = {}): Repository =>
    repositoryRow(id, workspaceId, NOW, over);
  const attach = (...ids: string[]) => ids.map((repositoryId) => ({ repositoryId, baseBranch: null }));
  const task = (id: string, workspaceId: string, over: Partial<Task> = {}): Task => taskRow(id, workspaceId, NOW, over);

  test('creates the data dir and file, and migrations are idempotent', async () => {
    const { db, dataDir } = await open();
    expect(existsSync(join(dataDir, DATABASE_FILE_NAME))).toBe(!onPostgres()); // no SQLite file beside PostgreSQL
    expect(await migrateToLatest(db)).toEqual([]);
    for (const table of ['workspaces', 'repositories', 'agent_profiles', 'tasks', 'task_repositories', 'sessions']) {
      expect(await db.schema.hasTable(table)).toBe(true);
    }
  });

  test('foreign keys are enforced', async () => {
    const { uow } = await open();
    await expect(uow.read.repositories.insert(repository('r1', 'missing-workspace'))).rejects.toMatchObject(
      FOREIGN_KEY,
    );
    await uow.read.workspaces.insert(workspace('w1'));
    await expect(uow.read.tasks.insert(task('t1', 'w1', { parentId: 'missing-parent' }))).rejects.toMatchObject(
      FOREIGN_KEY,
    );
  });

  test('repository identity is unique per workspace, not across workspaces', async () => {
    const { uow } = await open();
    await uow.read.workspaces.insert(workspace('w1'));
    await uow.read.workspaces.insert(workspace('w2'));
    await uow.read.repositories.insert(repository('r1', 'w1', { identityKey: 'github.com/acme/api' }));
    await expect(
      uow.read.repositories.insert(repository('r2', 'w1', { identityKey: 'github.com/acme/api' })),
    ).rejects.toMatchObject(UNIQUE);
    await uow.read.repositories.insert(repository('r3', 'w2', { identityKey: 'github.com/acme/api' }));
    expect((await uow.read.repositories.findByIdentity('w1', 'github.com/acme/api'))?.id).toBe('r1');
    expect((await uow.read.repositories.findByIdentity('w2', 'github.com/acme/api'))?.id).toBe('r3');
  });

  test('a repository row round-trips, with a null provider for local sources', async () => {
    const { uow } = await open();
    await uow.read.workspaces.insert(workspace('w1'));
    const local = repository('r1', 'w1', {
      sourceType: 'local',
      provider: null,
      providerHost: null,
      owner: null,
      remoteUrl: null,
      localPath: '/srv/tool',
      identityKey: '/srv/tool',
    });
    await uow.read.repositories.insert(local);
    expect(await uow.read.repositories.findById('r1')).toEqual(local);
    expect(await uow.read.repositories.findById('nope')).toBeUndefined();
  });

  test('tasks: autopilot booleans, lineage nearest first, attached repositories with providers', async () => {
    const { uow } = await open();
    await uow.read.workspaces.insert(workspace('w1'));
    await uow.read.repositories.insert(repository('gh', 'w1'));
    await uow.read.repositories.insert(
      repository('gl', 'w1', { provider: 'gitlab', identityKey: 'gitlab.com/acme/gl' }),
    );
    await uow.read.tasks.insert(task('root', 'w1', { autopilot: true }));
    await uow.read.tasks.insert(task('mid', 'w1', { parentId: 'root' }));
    await uow.read.tasks.insert(task('leaf', 'w1', { parentId: 'mid', autopilot: true }));
    await uow.read.tasks.attachRepositories('leaf', attach('gl', 'gh'), { batchId: 'b1', createdAt: NOW });

    expect(await uow.read.tasks.findById('root')).toEqual(task('root', 'w1', { autopilot: true }));
    expect((await uow.read.tasks.findById('mid'))?.autopilot).toBe(false);
    expect(await uow.read.tasks.lineage('leaf')).toEqual(['leaf', 'mid', 'root']);
    expect(await uow.read.tasks.lineage('root')).toEqual(['root']);
    expect(await uow.read.tasks.lineage('missing')).toEqual([]);
    const attached = await uow.read.tasks.attachedRepositories('leaf');
    expect(attached.map((a) => [a.repositoryId, a.provider]).sort()).toEqual([
      ['gh', 'github'],
      ['gl', 'gitlab'],
    ]);
    await expect(
      uow.read.tasks.attachRepositories('leaf', attach('gh'), { batchId: 'b2', createdAt: NOW }),
    ).rejects.toMatchObject(PRIMARY_KEY);
  });

  test('task update changes title and parent only', async () => {
    const { uow } = await open();
    await uow.read.workspaces.insert(workspace('w1'));
    await uow.read.tasks.insert(task('p', 'w1'));
    await uow.read.tasks.insert(task('t', 'w1', { autopilot: true }));
    await uow.read.tasks.update('t', { title: 'renamed', parentId: 'p', updatedAt: '2026-08-09T11:00:00.000Z' });
    expect(await uow.read.tasks.findById('t')).toEqual(
      task('t', 'w1', { autopilot: true, title: 'renamed', parentId: 'p', updatedAt: '2026-08-09T11:00:00.000Z' }),
    );
    await uow.read.tasks.update('t', { parentId: null, updatedAt: NOW });
    expect((await uow.read.tasks.findById('t'))?.parentId).toBeNull();
  });

  test('a failed transaction writes nothing', async () => {
    const { uow } = await open();
    await uow.read.workspaces.insert(workspace('w1'));
    await expect(
      uow.transaction(async (stores) => {
        await stores.tasks.insert(task('t', 'w1'));
        await stores.tasks.attachRepositories('t', attach('missing-repository'), { batchId: 'b', createdAt: NOW });
      }),
    ).rejects.toMatchObject(FOREIGN_KEY);
    expect(await uow.read.tasks.findById('t')).toBeUndefined();
  });

  test('sessions: the launch config is stored without the MCP token; state transitions', async () => {
    const { db, uow } = await open();
    await uow.read.workspaces.insert(workspace('w1'));
    await uow.read.tasks.insert(task('t', 'w1'));
    const config: LaunchConfig = {
      sessionId: 's',
      taskId: 't',
      workspaceId: 'w1',
      surface: 'kanban_task',
      questionCapability: 'user',
      providers: ['github'],
      revision: 1,
      ownsTaskTitle: false,
      mcpToken: 'secret-token-secret-token-secret-token-123',
      systemPrompt: 'prompt',
      agent: {
        command: 'agent',
        args: ['--acp'],
        env: { API_KEY: 'secret-api-key' },
        cwd: null,
        supportsMcp: true,
        permissionPolicy: 'ask',
        resumeAcpSessionId: null,
      },
    };
    const session: AgentSession = {
      id: 's',
      taskId: 't',
      state: 'created',
      executor: 'local',
      agentctlAddress: null,
      agentctlReplica: null,
      revision: 1,
      launchConfig: config,
      appliedRevision: 0,
      appliedProviders: null,
      refreshError: null,
      refreshAttempts: 0,
      refreshedAt: null,
      mcpTokenHash: 'ab'.repeat(32),
      surface: 'kanban_task',
      lastError: null,
      acpSessionId: null,
      createdAt: NOW,
      updatedAt: NOW,
    };
    await uow.read.sessions.insert(session);
    const raw: { launch_config: unknown } = await db('sessions').where({ id: 's' }).first('launch_config');
    // JSON text on SQLite, parsed by the driver on PostgreSQL.
    const stored = typeof raw.launch_config === 'string' ? raw.launch_config : JSON.stringify(raw.launch_config);
    expect(stored).not.toContain('secret-token');
    expect(stored).not.toContain('secret-api-key'); // agent env values are redacted, names kept
    const agent = { ...config.agent, env: { API_KEY: '<redacted>' } };
    expect(await uow.read.sessions.findById('s')).toEqual({
      ...session,
      launchConfig: { ...config, mcpToken: '', agent },
    });

    const at = (second: number) => `2026-08-09T10:00:0${second}.000Z`;
    const launching = { agentctl: { grpcAddress: '127.0.0.1:7421' } };
    expect(await uow.read.sessions.advance(session, { kind: 'launching' }, at(1), launching)).toBe('starting');
    await uow.read.sessions.recordAccepted(session, { revision: 1, providers: ['github'] }, at(1));
    expect(await uow.read.sessions.findById('s')).toMatchObject({
      state: 'starting',
      agentctlAddress: '127.0.0.1:7421',
      appliedRevision: 1,
      appliedProviders: ['github'],
      refreshedAt: at(1),
    });
    const failed = await uow.read.sessions.advanceCurrent('s', { kind: 'start_failed' }, at(2), {
      lastError: 'agentctl went away',
    });
    expect(failed).toBe('failed');
    expect(await uow.read.sessions.findById('s')).toMatchObject({ state: 'failed', lastError: 'agentctl went away' });
  });

  test('data survives reopening the file', async () => {
    const { db, dataDir } = await open();
    await createUnitOfWork(db, TEST_SECRETS).read.workspaces.insert(workspace('w1'));
    await db.destroy();
    const reopened = await open(dataDir);
    expect(await reopened.uow.read.workspaces.findById('w1')).toEqual(workspace('w1'));
  });
});
