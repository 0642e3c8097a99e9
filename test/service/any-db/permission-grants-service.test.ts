// "Allow always" remembered by kandev (docs/agents.md), in process on a fresh
// database per test (SQLite; PostgreSQL in service-pg): the agent never receives allow_always while it
// offers allow_once, the task gets a grant, and a later request with exactly the same tool kind and
// title is allowed once without a question. Every "no question was asked" check follows a settled
// decision, so nothing sleeps.
import { type Backend, createApp, createAuthMiddleware, createLogger, listen } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import {
  answer,
  askAndAnswer,
  createGrantsWorld,
  decide,
  parentReplies,
  pendingParentQuestion,
  pendingQuestion,
  permissionRequest as request,
} from '../../helpers/permission-grants-world';

const questionCount = async (backend: Backend, taskId: string) =>
  (await backend.questions.list({ taskId })).questions.length;

describe('permission grants (in process)', () => {
  const cleanup = useCleanup();

  test('the operator answers "Allow always": the agent gets allow_once and the task has a grant', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    await expect(askAndAnswer(backend, request('sRoot', 'root'), 'Allow always')).resolves.toBe('allow-once');
    expect(await backend.permissionGrants.list('root')).toEqual([
      expect.objectContaining({
        taskId: 'root',
        toolKind: 'execute',
        title: 'git add src/a.ts',
        grantedBy: 'operator',
        sessionId: 'sRoot',
      }),
    ]);
  });

  test('the same request again, from any session of the task: allow_once at once, no question', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    await askAndAnswer(backend, request('sRoot', 'root'), 'Allow always');
    await expect(decide(backend, request('sRoot', 'root'))).resolves.toBe('allow-once');
    await expect(decide(backend, request('sRoot2', 'root'))).resolves.toBe('allow-once');
    expect(await questionCount(backend, 'root')).toBe(1);
  });

  test.each([
    ['another title', request('sRoot', 'root', 'git add src/b.ts')],
    ['a longer command starting with the granted one', request('sRoot', 'root', 'git add src/a.ts; rm -rf ~')],
    ['the same title with another kind', request('sRoot', 'root', 'git add src/a.ts', 'edit')],
  ])('%s asks the operator', async (_name, other) => {
    const { backend } = await createGrantsWorld(cleanup);
    await askAndAnswer(backend, request('sRoot', 'root'), 'Allow always');
    await expect(askAndAnswer(backend, other, 'Reject')).resolves.toBe('reject-once');
    expect(await questionCount(backend, 'root')).toBe(2);
  });

  test('a grant covers its own task only', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    await askAndAnswer(backend, request('sRoot', 'root'), 'Allow always');
    const childAsks = decide(backend, request('sChild', 'child'));
    await parentReplies(backend, await pendingParentQuestion(backend), 'Reject');
    await expect(childAsks).resolves.toBe('reject-once');
  });

  test('an empty title: "Allow always" answers allow_once, but nothing is remembered', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    await expect(askAndAnswer(backend, request('sRoot', 'root', ''), 'Allow always')).resolves.toBe('allow-once');
    expect(await backend.permissionGrants.list('root')).toEqual([]);
    await expect(askAndAnswer(backend, request('sRoot', 'root', ''), 'Allow once')).resolves.toBe('allow-once');
    expect(await questionCount(backend, 'root')).toBe(2);
  });

  test('revoked: the next identical request asks again', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    await askAndAnswer(backend, request('sRoot', 'root'), 'Allow always');
    const [grant] = await backend.permissionGrants.list('root');
    await backend.permissionGrants.revoke('root', grant!.id);
    await expect(backend.permissionGrants.revoke('root', grant!.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(askAndAnswer(backend, request('sRoot', 'root'), 'Reject')).resolves.toBe('reject-once');
    expect(await questionCount(backend, 'root')).toBe(2);
  });

  test('an autopilot parent replies "Allow always": allow_once, granted by the parent; then no parent question', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    const asked = decide(backend, request('sChild', 'child'));
    await parentReplies(backend, await pendingParentQuestion(backend), 'Allow always');
    await expect(asked).resolves.toBe('allow-once');
    expect(await backend.permissionGrants.list('child')).toEqual([
      expect.objectContaining({ grantedBy: 'task:root', sessionId: 'sChild', title: 'git add src/a.ts' }),
    ]);
    await expect(decide(backend, request('sChild', 'child'))).resolves.toBe('allow-once');
    expect(await backend.uow.read.parentQuestions.listForChild('child')).toHaveLength(1);
  });

  test('an autopilot root (capability none) is rejected even with a grant for its task', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    await backend.uow.read.permissionGrants.insertIfAbsent({
      ...{ id: 'g1', taskId: 'solo', toolKind: 'execute', title: 'git add src/a.ts', grantedBy: 'operator' },
      ...{ sessionId: null, createdAt: new Date().toISOString() },
    });
    await expect(decide(backend, request('sSolo', 'solo'))).resolves.toBeNull();
  });

  test('a restarted backend on the same database keeps the grants', async () => {
    const { backend, restart } = await createGrantsWorld(cleanup);
    await askAndAnswer(backend, request('sRoot', 'root'), 'Allow always');
    const restarted = await restart();
    await expect(decide(restarted, request('sRoot2', 'root'))).resolves.toBe('allow-once');
    expect(await questionCount(restarted, 'root')).toBe(1);
  });

  test('two sessions answered "Allow always" for the same action at once: one grant, both allowed once', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    const first = decide(backend, request('sRoot', 'root'));
    const second = decide(backend, request('sRoot2', 'root'));
    const ids = [await pendingQuestion(backend, 'sRoot'), await pendingQuestion(backend, 'sRoot2')];
    await Promise.all(ids.map((id) => answer(backend, id, 'Allow always')));
    await expect(Promise.all([first, second])).resolves.toEqual(['allow-once', 'allow-once']);
    const [kept] = await backend.permissionGrants.list('root');
    // The store's own guarantee (the service logs and swallows a failed insert): a repeat is a no-op.
    await expect(
      backend.uow.read.permissionGrants.insertIfAbsent({ ...kept!, id: 'another' }),
    ).resolves.toBeUndefined();
    expect(await backend.permissionGrants.list('root')).toEqual([kept]);
  });

  test("archiving the task deletes its grants; other tasks' grants stay", async () => {
    const { backend } = await createGrantsWorld(cleanup);
    await askAndAnswer(backend, request('sRoot', 'root'), 'Allow always');
    const asked = decide(backend, request('sChild', 'child'));
    await parentReplies(backend, await pendingParentQuestion(backend), 'Allow always');
    await asked;
    await backend.sessions.archiveTask('root');
    expect(await backend.permissionGrants.list('root')).toEqual([]);
    expect(await backend.permissionGrants.list('child')).toHaveLength(1);
  });

  test('REST: listed and revoked behind the API token; unknown ids are 404', async () => {
    const { backend } = await createGrantsWorld(cleanup);
    await askAndAnswer(backend, request('sRoot', 'root'), 'Allow always');
    const app = createApp(createLogger('silent'), backend.routers, { auth: createAuthMiddleware(backend.tokens) });
    const server = await listen(app, '127.0.0.1', 0);
    cleanup.defer(() => server.close());
    const { token } = await backend.tokens.create('grants');
    const call = (method: string, path: string, bearer: string | null = token) =>
      fetch(`http://127.0.0.1:${server.port}${path}`, {
        method,
        headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
      });

    expect((await call('GET', '/api/tasks/root/permission-grants', null)).status).toBe(401);
    const listed = await call('GET', '/api/tasks/root/permission-grants');
    const body = (await listed.json()) as { task_id: string; permission_grants: { id: string }[] };
    expect(body).toEqual({
      task_id: 'root',
      permission_grants: [
        {
          id: expect.any(String) as unknown,
          task_id: 'root',
          tool_kind: 'execute',
          title: 'git add src/a.ts',
          granted_by: 'operator',
          session_id: 'sRoot',
          created_at: expect.any(String) as unknown,
        },
      ],
    });
    const grantId = body.permission_grants[0]!.id;
    expect((await call('DELETE', `/api/tasks/root/permission-grants/${grantId}`, null)).status).toBe(401);
    expect((await call('DELETE', `/api/tasks/child/permission-grants/${grantId}`)).status).toBe(404);
    expect((await call('DELETE', `/api/tasks/root/permission-grants/${grantId}`)).status).toBe(204);
    expect((await call('DELETE', `/api/tasks/root/permission-grants/${grantId}`)).status).toBe(404);
    expect((await call('GET', '/api/tasks/nope/permission-grants')).status).toBe(404);
  });
});
