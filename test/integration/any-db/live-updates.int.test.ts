// Live source updates end to end: REST batch -> one recomputation -> StreamProviderUpdates -> agentctl
// -> the real MCP SDK client with its notification stream open. "No notification" is proven at a barrier:
// stopping or resuming the session ends the stream after every notification sent on it, and the final
// count is exactly the notifications of the real changes.
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, finalListChangedCount } from '../../helpers/mcp';
import {
  connectStreaming,
  expectListChangedCount,
  MR_PAIR,
  PARENT_Q,
  PR_PAIR,
  providersIn,
  startLiveBackend,
  USER_Q,
} from '../../helpers/live-updates';
import { SseStream } from '../../helpers/sse';
import { waitUntil } from '../../helpers/wait';

describe('live source updates', () => {
  const cleanup = useCleanup();

  async function liveSession(repositories: Record<string, unknown>[], taskFields: Record<string, unknown> = {}) {
    const { backend, api, workspaceId } = await startLiveBackend(cleanup);
    const repos = [];
    for (const source of repositories) repos.push(await api.repository(workspaceId, source));
    const task = await api.task(workspaceId, { title: 't', repository_ids: repos.map((r) => r.id), ...taskFields });
    const session = await api.launch(task.id);
    const mcp = await connectStreaming(cleanup, session, backend.logs);
    return { backend, api, workspaceId, repos, task, session, mcp, logs: backend.logs };
  }

  test('the default answer: dispatched once the push is sent; the acknowledgement follows on the session and as tools.changed', async () => {
    const { backend, api, task, session, mcp, logs } = await liveSession([
      { remote_url: 'https://github.com/acme/api' },
    ]);
    const events = await SseStream.open(`${backend.ready.url}/api/events?session_id=${session.session_id}`, cleanup, {
      token: backend.apiToken,
      timeoutMs: 10_000,
    });

    const batch = await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web' }], 'dispatched');
    expect(batch.status).toBe(201);
    expect(batch.body.refresh).toEqual({
      status: 'dispatched',
      sessions: [{ session_id: session.session_id, status: 'dispatched', revision: 2 }],
    });
    const changed = await events.next((e) => e.type === 'tools.changed' && e.data.revision === 2, 'tools.changed 2');
    expect([...(changed.data.added as string[])].sort()).toEqual([...MR_PAIR].sort());
    await expectListChangedCount(mcp, 1, logs);
    // tools.changed is written with the acknowledgement, in its transaction: the session shows it.
    expect(await api.session(session.session_id)).toMatchObject({
      revision: 2,
      applied_revision: 2,
      refresh_error: null,
    });

    // The same call without `wait`, on the raw route: the default; a bad `wait` is refused, nothing written.
    const removal = await api.request<{ refresh: { status: string } }>(
      'DELETE',
      `/api/tasks/${task.id}/workspace-sources/${batch.body.added[0]?.id ?? ''}`,
    );
    expect(removal.body.refresh.status).toBe('dispatched');
    await events.next((e) => e.type === 'tools.changed' && e.data.revision === 3, 'tools.changed 3');
    const refused = await api.request('POST', `/api/tasks/${task.id}/workspace-sources?wait=later`, {
      sources: [{ remote_url: 'https://gitlab.com/acme/other' }],
    });
    expect(refused.status).toBe(400);
    expect((await api.getTask(task.id)).providers).toEqual(['github']);
    expect(await api.session(session.session_id)).toMatchObject({ revision: 3, applied_revision: 3 });
  });

  test('adding a gitlab repository to a github task: one list_changed, the MR pair, revision + 1', async () => {
    const { api, task, session, mcp, logs, repos } = await liveSession([{ remote_url: 'https://github.com/acme/api' }]);
    expect(providersIn(await mcp.toolNames())).toEqual(['github']);

    const batch = await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web', base_branch: 'main' }]);
    expect(batch.status).toBe(201);
    expect(batch.body).toEqual({
      task_id: task.id,
      batch_id: expect.any(String),
      added: [
        expect.objectContaining({ provider: 'gitlab', base_branch: 'main', remote_url: 'https://gitlab.com/acme/web' }),
      ],
      providers: ['github', 'gitlab'],
      refresh: { status: 'applied', sessions: [{ session_id: session.session_id, status: 'applied', revision: 2 }] },
    });
    await expectListChangedCount(mcp, 1, logs);
    const tools = await mcp.toolNames();
    expect(tools).toEqual(expect.arrayContaining([...PR_PAIR, ...MR_PAIR, USER_Q]));
    expect(await api.session(session.session_id)).toMatchObject({
      revision: 2,
      applied_revision: 2,
      refresh_error: null,
      tools,
      launch_config: { revision: 2, providers: ['github', 'gitlab'] },
    });
    expect((await api.getTask(task.id)).repository_ids).toEqual([repos[0]?.id, batch.body.added[0]?.id]);

    // The same batch again adds nothing: 200, no batch id, nothing to refresh, no revision change.
    const again = await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web', base_branch: 'main' }]);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ batch_id: null, added: [], refresh: { status: 'not_needed', sessions: [] } });
    // A repository of a provider the task already has: committed, but not_needed for the session.
    const sameProvider = await api.addSources(task.id, [{ remote_url: 'https://github.com/acme/docs' }]);
    expect(sameProvider.status).toBe(201);
    expect(sameProvider.body.refresh).toEqual({
      status: 'not_needed',
      sessions: [{ session_id: session.session_id, status: 'not_needed', revision: 2 }],
    });
    expect((await api.session(session.session_id)).revision).toBe(2);

    // A later real change is exactly the second notification: the two batches above sent none.
    const removed = await api.removeSource(task.id, batch.body.added[0]?.id ?? '');
    expect(removed.body.refresh.status).toBe('applied');
    await expectListChangedCount(mcp, 2, logs);
    expect(providersIn(await mcp.toolNames())).toEqual(['github']);
    expect((await api.stopSession(session.session_id)).status).toBe(200);
    expect(await finalListChangedCount(mcp, logs)).toBe(2);
  });

  test('a batch of three repositories of one provider: one notification, one revision bump', async () => {
    const { api, workspaceId, task, session, mcp, logs } = await liveSession([{ local_path: '/srv/tool' }]);
    expect(providersIn(await mcp.toolNames())).toEqual([]);
    const registered = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/registered' });
    const batch = await api.addSources(task.id, [
      { remote_url: 'https://gitlab.com/acme/one' },
      { repository_id: registered.id },
      { remote_url: 'git@gitlab.com:acme/three.git' },
    ]);
    expect(batch.status).toBe(201);
    expect(batch.body.added.map((a) => a.provider)).toEqual(['gitlab', 'gitlab', 'gitlab']);
    expect(batch.body.refresh.sessions).toEqual([{ session_id: session.session_id, status: 'applied', revision: 2 }]);
    await expectListChangedCount(mcp, 1, logs);
    expect(providersIn(await mcp.toolNames())).toEqual(['gitlab']);

    await api.addSources(task.id, [{ remote_url: 'https://github.com/acme/api' }]);
    await expectListChangedCount(mcp, 2, logs);
    expect((await api.session(session.session_id)).revision).toBe(3);
    expect((await api.stopSession(session.session_id)).status).toBe(200);
    expect(await finalListChangedCount(mcp, logs)).toBe(2);
  });

  test('two clients on one session: each gets exactly one notification per change', async () => {
    const { backend, api, task, session, mcp, logs } = await liveSession([
      { remote_url: 'https://github.com/acme/api' },
    ]);
    const second = await connectStreaming(cleanup, session, backend.logs);
    await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
    await expectListChangedCount(mcp, 1, logs);
    await expectListChangedCount(second, 1, logs);
    for (const client of [mcp, second]) expect(providersIn(await client.toolNames())).toEqual(['github', 'gitlab']);

    const { repository_ids } = await api.getTask(task.id);
    await api.removeSource(task.id, repository_ids[0] ?? '');
    await expectListChangedCount(mcp, 2, logs);
    await expectListChangedCount(second, 2, logs);
    expect((await api.stopSession(session.session_id)).status).toBe(200);
    for (const client of [mcp, second]) expect(await finalListChangedCount(client, logs)).toBe(2);
  });

  test('removing a source shrinks the set; removing an unattached repository is 404 and changes nothing', async () => {
    const { api, workspaceId, task, session, mcp, logs, repos } = await liveSession([
      { remote_url: 'https://github.com/acme/api' },
      { remote_url: 'https://gitlab.com/acme/web' },
    ]);
    const [gh, gl] = repos;
    const removed = await api.removeSource(task.id, gl?.id ?? '');
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      task_id: task.id,
      removed: expect.objectContaining({ id: gl?.id, provider: 'gitlab' }),
      providers: ['github'],
      refresh: { status: 'applied', sessions: [{ session_id: session.session_id, status: 'applied', revision: 2 }] },
    });
    await expectListChangedCount(mcp, 1, logs);
    const tools = await mcp.toolNames();
    expect(tools).toEqual(expect.arrayContaining(PR_PAIR));
    for (const tool of MR_PAIR) expect(tools).not.toContain(tool);

    const unattached = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/other' });
    for (const id of [unattached.id, gl?.id ?? '', 'no-such-repository']) {
      const response = await api.removeSource(task.id, id);
      expect({ id, status: response.status }).toEqual({ id, status: 404 });
    }
    expect((await api.removeSource('no-such-task', gh?.id ?? '')).status).toBe(404);
    expect((await api.getTask(task.id)).repository_ids).toEqual([gh?.id]);
    expect((await api.session(session.session_id)).revision).toBe(2);

    await api.addSources(task.id, [{ repository_id: gl?.id }]);
    await expectListChangedCount(mcp, 2, logs);
    expect((await api.stopSession(session.session_id)).status).toBe(200);
    expect(await finalListChangedCount(mcp, logs)).toBe(2); // the 404s sent nothing
  });

  test('reparenting a running task changes nothing live; resume applies the new question capability', async () => {
    const { api, workspaceId, task, session, mcp, logs } = await liveSession(
      [{ remote_url: 'https://github.com/acme/api' }],
      { autopilot: true },
    );
    const before = await mcp.toolNames();
    expect(before).not.toContain(PARENT_Q);
    const parent = await api.task(workspaceId, { title: 'parent' });
    expect((await api.request('PATCH', `/api/tasks/${task.id}`, { parent_id: parent.id })).status).toBe(200);
    expect(await mcp.toolNames()).toEqual(before);
    expect(await api.session(session.session_id)).toMatchObject({
      revision: 1,
      launch_config: { question_capability: 'none' },
    });

    // A live provider change keeps the running capability, and is the first notification.
    await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
    await expectListChangedCount(mcp, 1, logs);
    expect(await mcp.toolNames()).not.toContain(PARENT_Q);

    const resumed = await api.resume(session.session_id);
    expect(resumed.status).toBe(200);
    expect(resumed.body.launch_config).toMatchObject({
      question_capability: 'parent',
      providers: ['github', 'gitlab'],
      revision: 3,
    });
    // Resume closed the old token's connection: the reparenting sent nothing, the provider change one.
    expect(await finalListChangedCount(mcp, logs)).toBe(1);
    const fresh = await connectMcp(cleanup, resumed.body.mcp_url, resumed.body.mcp_token);
    const after = await fresh.toolNames();
    expect(after).toEqual(expect.arrayContaining([PARENT_Q, ...PR_PAIR, ...MR_PAIR]));
    expect(after).not.toContain(USER_Q);
    expect((await api.session(session.session_id)).tools).toEqual(after);
  });

  test('an invalid batch is rejected as a whole: 400 and nothing written', async () => {
    const { backend, api, workspaceId, task, session, repos } = await liveSession([
      { remote_url: 'https://github.com/acme/api' },
    ]);
    const otherWorkspace = await api.workspace('other');
    const foreign = await api.repository(otherWorkspace, { remote_url: 'https://gitlab.com/acme/foreign' });
    const good = { remote_url: 'https://gitlab.com/acme/good' };
    const invalid: unknown[] = [
      [good, { remote_url: 'not a url' }],
      [good, { local_path: 'relative/path' }],
      [good, { repository_id: 'no-such-repository' }],
      [good, { repository_id: foreign.id }],
      [good, { remote_url: 'https://gitlab.com/acme/x', local_path: '/srv/x' }],
      [good, { remote_url: 'https://gitlab.com/acme/x', base_branch: 'has space' }],
      [good, { repository_id: repos[0]?.id, base_branch: 'main' }],
      [],
      'not-an-array',
    ];
    for (const sources of invalid) {
      const response = await api.addSources(task.id, sources);
      expect({ sources, status: response.status }).toEqual({ sources, status: 400 });
    }
    const unknownField = await api.request('POST', `/api/tasks/${task.id}/workspace-sources`, {
      sources: [good],
      extra: true,
    });
    expect(unknownField.status).toBe(400);
    expect((await api.addSources('no-such-task', [good])).status).toBe(404);

    expect((await api.getTask(task.id)).repository_ids).toEqual([repos[0]?.id]);
    expect((await api.session(session.session_id)).revision).toBe(1);
    // The good source of the rejected batches was never registered either.
    expect((await api.request('POST', '/api/repositories', { workspace_id: workspaceId, ...good })).status).toBe(201);

    // A later valid batch logs one refresh; the log is one ordered stream, so once its line is there, any
    // refresh of the rejected batches would be there before it.
    expect((await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/later' }])).status).toBe(201);
    const refreshed = () => backend.logs().match(/providers refreshed/g) ?? [];
    await waitUntil(() => refreshed().length > 0, { timeoutMs: 5_000, logs: backend.logs, what: 'the refresh log' });
    expect(refreshed()).toHaveLength(1);
  });

  test('a conflicting base branch is 409; resume of an unknown session 404, with a body field 400', async () => {
    const { api, task, session } = await liveSession([]);
    const first = await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web', base_branch: 'main' }]);
    expect(first.status).toBe(201);
    const conflict = await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web', base_branch: 'dev' }]);
    expect(conflict.status).toBe(409);
    expect((await api.resume('no-such-session')).status).toBe(404);
    expect((await api.resume(session.session_id, { revision: 9 })).status).toBe(400);
    expect((await api.session(session.session_id)).revision).toBe(2);
  });
});
