// The task tool handlers in process (fresh SQLite per test, fake agentctl): reads, create_task and
// update_task, and the permission rules every handler applies to the bound caller and its target.
import { useCleanup } from '../../helpers/cleanup';
import { everyPage, familyHarness } from '../../helpers/task-family';
import { createToolHarness, expectRefusedUnchanged, refusal } from '@kandev/backend/testing';

const ids = (rows: unknown): string[] => (rows as { id: string }[]).map((row) => row.id);

describe('task tools: reads', () => {
  const cleanup = useCleanup();

  test('list_tasks: the workspace only, parent_id "self", state filter, pages with a cursor', async () => {
    const h = await familyHarness(cleanup);
    const all = await h.call('s-me', 'list_tasks_kandev', {});
    expect(ids(all.structured?.tasks)).toEqual(['boss', 'me', 'kid', 'grandkid', 'sib']);
    const children = await h.call('s-me', 'list_tasks_kandev', { parent_id: 'self' });
    expect(ids(children.structured?.tasks)).toEqual(['kid']);
    expect(children.text).toContain('kid [todo] task kid');
    await h.db('tasks').where({ id: 'sib' }).update({ state: 'done' });
    expect(ids((await h.call('s-me', 'list_tasks_kandev', { state: 'done' })).structured?.tasks)).toEqual(['sib']);

    const seen = ids(await everyPage(h, 's-me', 'list_tasks_kandev', { limit: 2 }, 'tasks'));
    expect(seen).toEqual(['boss', 'me', 'kid', 'grandkid', 'sib']);
  });

  test('list_tasks: tasks created in the same instant page by id, none repeated or skipped', async () => {
    const h = await familyHarness(cleanup);
    await h.db('tasks').update({ created_at: '2026-11-30T09:00:00.000Z' });
    const seen = ids(await everyPage(h, 's-me', 'list_tasks_kandev', { limit: 2 }, 'tasks'));
    expect(seen).toEqual(['boss', 'grandkid', 'kid', 'me', 'sib']);
  });

  test('list_tasks: invalid input is invalid_argument; a parent in another workspace is refused', async () => {
    const h = await familyHarness(cleanup);
    for (const args of [{ state: 'bogus' }, { limit: 0 }, { limit: 201 }, { cursor: 'nope' }, { mine: true }]) {
      await expectRefusedUnchanged(h, () => h.call('s-me', 'list_tasks_kandev', args), 'invalid_argument');
    }
    const foreign = await refusal(h.call('s-me', 'list_tasks_kandev', { parent_id: 'stranger' }));
    expect(foreign.code).toBe('permission_denied');
  });

  test('get_task: own (task_id omitted), a child, any task of the workspace; never another workspace', async () => {
    const h = await familyHarness(cleanup);
    const own = await h.call('s-me', 'get_task_kandev', {});
    expect(own.structured).toMatchObject({
      task: { id: 'me', parent_id: 'boss', autopilot: false, providers: [] },
      prs: [],
      mrs: [],
    });
    await h.call('s-me', 'add_workspace_sources_kandev', { sources: [{ remote_url: 'https://github.com/acme/api' }] });
    const [repositoryId] = (await h.uow.read.tasks.attachments('me')).map((a) => a.repositoryId);
    const at = '2026-11-30T11:00:00.000Z';
    const options = {
      auto_fix_enabled: false,
      auto_merge_enabled: false,
      prompt_on_review_requested: false,
      prompt_on_merged: false,
      prompt_on_closed: false,
    };
    const pr = { taskId: 'me', repositoryId: repositoryId ?? '', number: 7, state: 'open' as const, headSha: null };
    await h.uow.read.taskPrs.insert({ ...pr, id: 'pr7', options, createdAt: at, updatedAt: at });
    const linked = await h.call('s-me', 'get_task_kandev', {});
    expect(linked.structured).toMatchObject({ task: { providers: ['github'] }, prs: [{ number: 7, state: 'open' }] });
    expect(linked.text).toContain('PRs: #7 (open)');
    for (const id of ['kid', 'grandkid', 'sib', 'boss']) {
      expect((await h.call('s-me', 'get_task_kandev', { task_id: id })).structured?.task).toMatchObject({ id });
    }
    const foreign = await refusal(h.call('s-me', 'get_task_kandev', { task_id: 'stranger' }));
    expect(foreign).toMatchObject({ code: 'permission_denied', message: expect.stringMatching(/another workspace/) });
    expect((await refusal(h.call('s-me', 'get_task_kandev', { task_id: 'ghost' }))).code).toBe('not_found');
    await expectRefusedUnchanged(h, () => h.call('s-me', 'get_task_kandev', { task_id: 5 }), 'invalid_argument');
  });

  test('list_task_sessions: newest first, workspace only; invalid input refused', async () => {
    const h = await familyHarness(cleanup);
    await h.session('s-kid-2', 'kid', { state: 'failed' });
    const sessions = await h.call('s-me', 'list_task_sessions_kandev', { task_id: 'kid' });
    expect(sessions.structured).toMatchObject({
      task_id: 'kid',
      sessions: [
        { id: 's-kid-2', state: 'failed' },
        { id: 's-kid', state: 'waiting_for_input' },
      ],
    });
    expect(JSON.stringify(sessions.structured)).not.toContain('ab'.repeat(32)); // no token hash
    expect(ids((await h.call('s-me', 'list_task_sessions_kandev', {})).structured?.sessions)).toEqual(['s-me']);
    const foreign = await refusal(h.call('s-me', 'list_task_sessions_kandev', { task_id: 'stranger' }));
    expect(foreign.code).toBe('permission_denied');
    await expectRefusedUnchanged(
      h,
      () => h.call('s-me', 'list_task_sessions_kandev', { task_id: '' }),
      'invalid_argument',
    );
  });
});

describe('task tools: create_task', () => {
  const cleanup = useCleanup();

  test('a subtask of "self" with a prompt: task, description, message and queued prompt in one go', async () => {
    const h = await familyHarness(cleanup);
    const created = await h.call('s-me', 'create_task_kandev', {
      title: 'Write the parser',
      prompt: 'Parse the config file; done when tests pass.',
      description: 'Longer text',
      parent_id: 'self',
    });
    const task = created.structured?.task as { id: string };
    expect(created.structured).toMatchObject({
      task: { parent_id: 'me', workspace_id: 'w', autopilot: false, description: 'Longer text', state: 'todo' },
      agent_started: false,
    });
    expect(await h.uow.read.tasks.findById(task.id)).toMatchObject({ parentId: 'me', description: 'Longer text' });
    expect(await h.db('messages').where({ task_id: task.id })).toMatchObject([
      { type: 'message', author: 'task:me', content: 'Parse the config file; done when tests pass.' },
    ]);
    expect(await h.uow.read.promptQueue.listQueued(task.id)).toMatchObject([
      { id: created.structured?.queued_prompt_id, sessionId: null, source: 'task:me', status: 'queued' },
    ]);
    const top = await h.call('s-me', 'create_task_kandev', { title: 'Top level' });
    expect(top.structured).toMatchObject({ task: { parent_id: null, workspace_id: 'w' }, queued_prompt_id: null });
  });

  test('autopilot is explicit: default false, never inherited from an autopilot parent', async () => {
    const h = await createToolHarness(cleanup);
    await h.workspace('w');
    await h.task('pilot', { autopilot: true });
    await h.session('s-pilot', 'pilot');
    const inherited = await h.call('s-pilot', 'create_task_kandev', { title: 'child', parent_id: 'self' });
    expect(inherited.structured?.task).toMatchObject({ parent_id: 'pilot', autopilot: false });
    const explicit = await h.call('s-pilot', 'create_task_kandev', {
      title: 'c2',
      parent_id: 'pilot',
      autopilot: true,
    });
    expect(explicit.structured?.task).toMatchObject({ parent_id: 'pilot', autopilot: true });
  });

  test('an agent profile without MCP support cannot run an autopilot task; without autopilot it can', async () => {
    const h = await familyHarness(cleanup);
    const profile = { command: 'agent', args: [], createdAt: '2026-11-30T10:00:00.000Z' };
    await h.uow.read.agentProfiles.insert({ ...profile, id: 'plain', name: 'Plain', supportsMcp: false });
    await h.uow.read.agentProfiles.insert({ ...profile, id: 'mcp', name: 'MCP', supportsMcp: true });
    const refused = await expectRefusedUnchanged(
      h,
      () =>
        h.call('s-me', 'create_task_kandev', { title: 't', autopilot: true, agent_profile_id: 'plain', prompt: 'p' }),
      'invalid_argument',
    );
    expect(refused.message).toMatch(/cannot receive the MCP tool set/);
    const plain = await h.call('s-me', 'create_task_kandev', { title: 't', agent_profile_id: 'plain' });
    expect(plain.structured?.task).toMatchObject({ autopilot: false, agent_profile_id: 'plain' });
    const pilot = await h.call('s-me', 'create_task_kandev', { title: 't', autopilot: true, agent_profile_id: 'mcp' });
    expect(pilot.structured?.task).toMatchObject({ autopilot: true, agent_profile_id: 'mcp' });
    await expectRefusedUnchanged(
      h,
      () => h.call('s-me', 'create_task_kandev', { title: 't', agent_profile_id: 'ghost' }),
      'not_found',
    );
  });

  test('only under the caller itself; invalid input writes nothing', async () => {
    const h = await familyHarness(cleanup);
    for (const parent of ['kid', 'boss', 'stranger', 'ghost']) {
      await expectRefusedUnchanged(
        h,
        () => h.call('s-me', 'create_task_kandev', { title: 't', parent_id: parent }),
        'permission_denied',
      );
    }
    for (const args of [
      {},
      { title: 'x'.repeat(61) },
      { title: '  ' },
      { title: 't', prompt: ' ' },
      { title: 't', workspace_id: 'w2' },
    ]) {
      await expectRefusedUnchanged(h, () => h.call('s-me', 'create_task_kandev', args), 'invalid_argument');
    }
  });
});

describe('task tools: update_task', () => {
  const cleanup = useCleanup();

  test('updates the caller own task: title, description, state', async () => {
    const h = await familyHarness(cleanup);
    const updated = await h.call('s-me', 'update_task_kandev', { title: 'New', description: 'd', state: 'review' });
    expect(updated.structured?.task).toMatchObject({ id: 'me', title: 'New', description: 'd', state: 'review' });
    expect(await h.uow.read.tasks.findById('me')).toMatchObject({ title: 'New', description: 'd', state: 'review' });
  });

  test('a state change records the task.updated event the REST PATCH records, change.state {from, to}', async () => {
    const h = await familyHarness(cleanup);
    const updates = async () =>
      (await h.uow.read.events.after(0, { taskId: 'me', types: ['task.updated'] }, 100)).map((e) => e.data);
    expect(await updates()).toEqual([]);
    // Agents are not held to the operator's transition table: todo → review is theirs to make.
    await h.call('s-me', 'update_task_kandev', { state: 'review' });
    await h.call('s-me', 'update_task_kandev', { title: 'Renamed' });
    const [moved, renamed, ...rest] = await updates();
    expect(moved).toMatchObject({
      task: { id: 'me', state: 'review' },
      change: { state: { from: 'todo', to: 'review' } },
    });
    // The title change is the barrier: it has its event, without a state change.
    expect(renamed).toMatchObject({ task: { id: 'me', title: 'Renamed', state: 'review' } });
    expect(renamed).not.toHaveProperty('change');
    expect(rest).toEqual([]);
  });

  test('autopilot is refused with a clear error; invalid input and other tasks change nothing', async () => {
    const h = await familyHarness(cleanup);
    const autopilot = await expectRefusedUnchanged(
      h,
      () => h.call('s-me', 'update_task_kandev', { autopilot: true, title: 'x' }),
      'invalid_argument',
    );
    expect(autopilot.message).toBe('autopilot is fixed at task creation');
    for (const args of [{}, { state: 'bogus' }, { title: '' }, { task_id: 'me', parent_id: 'sib' }]) {
      await expectRefusedUnchanged(h, () => h.call('s-me', 'update_task_kandev', args), 'invalid_argument');
    }
    for (const target of ['kid', 'boss', 'sib', 'stranger']) {
      await expectRefusedUnchanged(
        h,
        () => h.call('s-me', 'update_task_kandev', { task_id: target, title: 'hijacked' }),
        'permission_denied',
      );
    }
  });
});

describe('task tools: the bound identity always wins', () => {
  const cleanup = useCleanup();

  test('a forged task_id is only a target: the child cannot act on its parent or as it', async () => {
    const h = await familyHarness(cleanup);
    // kid's agent names its parent: a target outside its rules, never a change of caller.
    await expectRefusedUnchanged(
      h,
      () => h.call('s-kid', 'update_task_kandev', { task_id: 'me', title: 'x' }),
      'permission_denied',
    );
    await expectRefusedUnchanged(h, () => h.call('s-kid', 'stop_task_kandev', { task_id: 'me' }), 'permission_denied');
    await expectRefusedUnchanged(
      h,
      () => h.call('s-kid', 'message_task_kandev', { task_id: 'me', prompt: 'p' }),
      'permission_denied',
    );
    // Tools that only act on the caller take no task argument at all.
    await expectRefusedUnchanged(
      h,
      () => h.call('s-kid', 'step_complete_kandev', { summary: 's', task_id: 'me' }),
      'invalid_argument',
    );
    // parent_id "self" is the bound caller (kid), whatever else the call says.
    const created = await h.call('s-kid', 'create_task_kandev', { title: 't', parent_id: 'self' });
    expect(created.structured?.task).toMatchObject({ parent_id: 'kid' });
  });

  test('a context whose binding disagrees with its session row is refused', async () => {
    const h = await familyHarness(cleanup);
    const forged = await refusal(h.call('s-kid', 'get_task_kandev', {}, { taskId: 'me' }));
    expect(forged.code).toBe('permission_denied');
    const wrongWorkspace = await refusal(h.call('s-me', 'get_task_kandev', {}, { workspaceId: 'w2' }));
    expect(wrongWorkspace.code).toBe('permission_denied');
  });

  test('a call cancelled before it writes writes nothing', async () => {
    const h = await familyHarness(cleanup);
    const cancelled = new AbortController();
    cancelled.abort();
    const signal = cancelled.signal;
    await expectRefusedUnchanged(
      h,
      () => h.call('s-me', 'create_task_kandev', { title: 't' }, { signal }),
      'unavailable',
    );
    await expectRefusedUnchanged(
      h,
      () => h.call('s-me', 'message_task_kandev', { task_id: 'kid', prompt: 'p' }, { signal }),
      'unavailable',
    );
  });

  test('discovery is not a boundary: tools outside the session surface are refused', async () => {
    const h = await familyHarness(cleanup);
    await h.session('s-office', 'sib', { surface: 'office_task' });
    expect((await h.call('s-office', 'get_task_kandev', {})).structured?.task).toMatchObject({ id: 'sib' });
    for (const [tool, args] of [
      ['create_task_kandev', { title: 't' }],
      ['list_tasks_kandev', {}],
      ['list_workspaces_kandev', {}],
      ['set_task_title_kandev', { title: 't' }],
    ] as const) {
      await expectRefusedUnchanged(h, () => h.call('s-office', tool, args), 'permission_denied');
    }
  });
});
