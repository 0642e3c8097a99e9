// The task tools that act on own tasks and direct subtasks (message_task, stop_task,
// add_workspace_sources), the conversation (step_complete, set_task_title, get_task_conversation) and
// the operator's REST view of it. In process, fresh SQLite per test, fake agentctl.
import {
  createApp,
  createLogger,
  createMessageRoutes,
  expectRefusedUnchanged,
  listen,
  PROVIDER_SET_QUERY,
  refusal,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { everyPage, familyHarness } from '../../helpers/task-family';

describe('message_task', () => {
  const cleanup = useCleanup();

  test('to a direct child: a message on its conversation and a prompt queued for its live session', async () => {
    const h = await familyHarness(cleanup);
    const sent = await h.call('s-me', 'message_task_kandev', { task_id: 'kid', prompt: 'Use the v2 API.' });
    expect(sent.structured).toMatchObject({ task_id: 'kid', session_id: 's-kid', status: 'queued' });
    expect(await h.uow.read.promptQueue.listQueued('kid')).toMatchObject([
      { id: sent.structured?.queued_prompt_id, sessionId: 's-kid', prompt: 'Use the v2 API.', source: 'task:me' },
    ]);
    expect(await h.db('messages').where({ task_id: 'kid' })).toMatchObject([
      { id: sent.structured?.message_id, type: 'message', author: 'task:me', session_id: 's-kid' },
    ]);
    const own = await h.call('s-me', 'message_task_kandev', { task_id: 'me', prompt: 'Note to self' });
    expect(own.structured).toMatchObject({ task_id: 'me', session_id: 's-me' });
    // Each committed prompt asks its session's queue to drain; a refused call asks nothing.
    expect(h.kicks).toEqual(['s-kid', 's-me']);
    await refusal(h.call('s-me', 'message_task_kandev', { task_id: 'sib', prompt: 'p' }));
    expect(h.kicks).toEqual(['s-kid', 's-me']);
  });

  test('to a child without a live session: queued for whichever session runs next, nothing kicked', async () => {
    const h = await familyHarness(cleanup);
    await h.task('idle', { parentId: 'me' });
    const sent = await h.call('s-me', 'message_task_kandev', { task_id: 'idle', prompt: 'later' });
    expect(sent.structured).toMatchObject({ task_id: 'idle', session_id: null, status: 'queued' });
    expect(h.kicks).toEqual([]);
  });

  test('grandchild, sibling, parent and another workspace are refused; nothing written', async () => {
    const h = await familyHarness(cleanup);
    for (const target of ['grandkid', 'sib', 'boss', 'stranger']) {
      const error = await expectRefusedUnchanged(
        h,
        () => h.call('s-me', 'message_task_kandev', { task_id: target, prompt: 'p' }),
        'permission_denied',
      );
      expect(error.message).toMatch(/^message_task_kandev acts on your own task or your direct subtasks only; /);
    }
  });

  test('reply_to_question_id: an unknown question (not_found), nothing sent; invalid input refused', async () => {
    const h = await familyHarness(cleanup);
    const reply = await expectRefusedUnchanged(
      h,
      () => h.call('s-me', 'message_task_kandev', { task_id: 'kid', prompt: 'yes', reply_to_question_id: 'q1' }),
      'not_found',
    );
    expect(reply.message).toMatch(/^no parent question q1; send the prompt without reply_to_question_id/);
    expect(h.kicks).toEqual([]);
    for (const args of [
      { task_id: 'kid' },
      { prompt: 'p' },
      { task_id: 'kid', prompt: '' },
      { task_id: 'kid', prompt: 'p', from: 'x' },
    ]) {
      await expectRefusedUnchanged(h, () => h.call('s-me', 'message_task_kandev', args), 'invalid_argument');
    }
  });

  test('the office surface messages and completes steps with the same handlers', async () => {
    const h = await familyHarness(cleanup);
    await h.session('s-office', 'me', { surface: 'office_task' });
    const sent = await h.call('s-office', 'message_task_kandev', { task_id: 'kid', prompt: 'from the office' });
    expect(sent.structured).toMatchObject({ task_id: 'kid', session_id: 's-kid' });
    await h.call('s-office', 'step_complete_kandev', { summary: 'done' });
    expect(await h.db('messages').where({ task_id: 'me', type: 'step_complete' })).toMatchObject([
      { session_id: 's-office', author: 'agent', content: 'done' },
    ]);
  });
});

describe('stop_task', () => {
  const cleanup = useCleanup();

  test('a direct child: agentctl stops its sessions, they are recorded cancelled, the reason is on the task', async () => {
    const h = await familyHarness(cleanup);
    await h.db('prompt_queue').insert({
      id: 'in-flight',
      task_id: 'kid',
      session_id: 's-kid',
      prompt: 'p',
      source: 'operator',
      status: 'dispatched',
      created_at: '2026-11-30T10:00:00.000Z',
      dispatched_at: '2026-11-30T10:00:00.000Z',
    });
    const stopped = await h.call('s-me', 'stop_task_kandev', { task_id: 'kid', reason: 'wrong approach' });
    expect(stopped.structured).toMatchObject({
      task_id: 'kid',
      stopped_sessions: [{ session_id: 's-kid', runtime: 'stopped' }],
    });
    expect(h.agentctl.calls).toContain('StopSession s-kid');
    expect(await h.uow.read.sessions.findById('s-kid')).toMatchObject({ state: 'cancelled' });
    expect(await h.db('prompt_queue').where({ session_id: 's-kid' })).toMatchObject([
      { id: 'in-flight', status: 'failed', error: 'session stopped' },
    ]);
    expect(await h.uow.read.tasks.findById('kid')).toMatchObject({ state: 'todo' }); // nothing else changes
    expect(await h.db('messages').where({ task_id: 'kid' })).toMatchObject([
      { type: 'task_stopped', author: 'task:me', content: 'wrong approach' },
    ]);
    const before = await h.snapshot(); // a retry finds nothing running and writes nothing
    const again = await h.call('s-me', 'stop_task_kandev', { task_id: 'kid' });
    expect(again).toMatchObject({
      text: 'Task kid has no running session; nothing to stop.',
      structured: { stopped_sessions: [] },
    });
    expect(await h.snapshot()).toEqual(before);
  });

  test('only direct children: self, grandchild, sibling and another workspace are refused', async () => {
    const h = await familyHarness(cleanup);
    await h.session('s-grandkid', 'grandkid');
    for (const target of ['me', 'grandkid', 'sib', 'stranger']) {
      await expectRefusedUnchanged(
        h,
        () => h.call('s-me', 'stop_task_kandev', { task_id: target }),
        'permission_denied',
      );
    }
    for (const args of [{}, { task_id: '' }, { task_id: 'kid', reason: 'x'.repeat(501) }]) {
      await expectRefusedUnchanged(h, () => h.call('s-me', 'stop_task_kandev', args), 'invalid_argument');
    }
    expect(h.agentctl.calls.filter((c) => c.startsWith('StopSession'))).toEqual([]);
  });
});

describe('add_workspace_sources', () => {
  const cleanup = useCleanup();

  test('the REST batch path: one provider-set query, one refresh of the live session', async () => {
    const h = await familyHarness(cleanup);
    h.sql.length = 0;
    const batch = await h.call('s-me', 'add_workspace_sources_kandev', {
      sources: [
        { remote_url: 'https://github.com/a/1' },
        { remote_url: 'https://gitlab.com/a/2' },
        { local_path: '/srv/x' },
      ],
    });
    expect(h.sql.filter((q) => PROVIDER_SET_QUERY.test(q))).toHaveLength(1);
    expect(batch.structured).toMatchObject({
      task_id: 'me',
      providers: ['github', 'gitlab'],
      refresh: { status: 'applied', sessions: [{ session_id: 's-me', status: 'applied', revision: 2 }] },
    });
    expect(h.agentctl.calls.filter((c) => c.startsWith('ProviderUpdate '))).toEqual([
      'ProviderUpdate s-me github+gitlab 2',
    ]);
    expect(await h.db('task_repositories').where({ task_id: 'me' }).distinct('batch_id')).toHaveLength(1);
  });

  test('a direct child is allowed; grandchild, sibling, other workspace refused; invalid batches write nothing', async () => {
    const h = await familyHarness(cleanup);
    const source = { remote_url: 'https://github.com/a/1' };
    const child = await h.call('s-me', 'add_workspace_sources_kandev', { task_id: 'kid', sources: [source] });
    expect(child.structured).toMatchObject({ task_id: 'kid', providers: ['github'] });
    for (const target of ['grandkid', 'sib', 'stranger', 'boss']) {
      await expectRefusedUnchanged(
        h,
        () => h.call('s-me', 'add_workspace_sources_kandev', { task_id: target, sources: [source] }),
        'permission_denied',
      );
    }
    for (const sources of [
      [],
      [{ repository_id: 'r', base_branch: 'main' }],
      Array(21).fill(source),
      [{ remote_url: 'https://github.com/a/2' }, { url: 'x' }],
    ]) {
      await expectRefusedUnchanged(
        h,
        () => h.call('s-me', 'add_workspace_sources_kandev', { sources }),
        'invalid_argument',
      );
    }
  });
});

describe('the conversation: step_complete, set_task_title, get_task_conversation', () => {
  const cleanup = useCleanup();

  test('step_complete records on the caller task; invalid input writes nothing', async () => {
    const h = await familyHarness(cleanup);
    const done = await h.call('s-me', 'step_complete_kandev', { summary: 'Parser done', handoff: 'next: docs' });
    expect(await h.db('messages').where({ id: done.structured?.message_id })).toMatchObject([
      { task_id: 'me', session_id: 's-me', type: 'step_complete', author: 'agent', content: 'Parser done' },
    ]);
    for (const args of [{}, { summary: '' }, { summary: 'x'.repeat(4001) }, { summary: 's', task_id: 'kid' }]) {
      await expectRefusedUnchanged(h, () => h.call('s-me', 'step_complete_kandev', args), 'invalid_argument');
    }
  });

  test('set_task_title: the caller own task only, recorded as a title change and task.updated; needs a title-owning session', async () => {
    const h = await familyHarness(cleanup);
    const set = await h.call('s-me', 'set_task_title_kandev', { title: 'Add config parser' });
    expect(set.structured).toEqual({ task_id: 'me', title: 'Add config parser', previous_title: 'task me' });
    expect(await h.uow.read.tasks.findById('me')).toMatchObject({ title: 'Add config parser' });
    expect(await h.db('messages').where({ task_id: 'me', type: 'title_change' })).toMatchObject([
      { content: 'Add config parser', author: 'agent' },
    ]);
    // The same task.updated event as the operator's PATCH of the title.
    const updated = await h.uow.read.events.after(0, { taskId: 'me', types: ['task.updated'] }, 10);
    expect(updated.map((event) => event.data.task)).toEqual([expect.objectContaining({ title: 'Add config parser' })]);
    for (const args of [{ title: '' }, { title: 'x'.repeat(61) }, { title: 'x', task_id: 'kid' }]) {
      await expectRefusedUnchanged(h, () => h.call('s-me', 'set_task_title_kandev', args), 'invalid_argument');
    }
    await expectRefusedUnchanged(
      h,
      () => h.call('s-kid', 'set_task_title_kandev', { title: 'mine' }),
      'permission_denied',
    );
  });

  test('get_task_conversation pages oldest first with a cursor; the workspace only', async () => {
    const h = await familyHarness(cleanup);
    for (const prompt of ['one', 'two', 'three'])
      await h.call('s-me', 'message_task_kandev', { task_id: 'kid', prompt });
    await h.call('s-kid', 'step_complete_kandev', { summary: 'four' });
    const args = { task_id: 'kid', limit: 3 };
    const messages = await everyPage<{ content: string }>(h, 's-me', 'get_task_conversation_kandev', args, 'messages');
    expect(messages.map((m) => m.content)).toEqual(['one', 'two', 'three', 'four']);
    expect((await h.call('s-kid', 'get_task_conversation_kandev', {})).structured?.messages).toHaveLength(4);
    expect((await refusal(h.call('s-me', 'get_task_conversation_kandev', { task_id: 'stranger' }))).code).toBe(
      'permission_denied',
    );
    for (const args of [{ limit: 0 }, { cursor: 'bogus' }, { task_id: 'kid', page: 2 }]) {
      await expectRefusedUnchanged(h, () => h.call('s-me', 'get_task_conversation_kandev', args), 'invalid_argument');
    }
  });

  test('REST GET /api/tasks/:id/messages shows the same pages to operators', async () => {
    const h = await familyHarness(cleanup);
    await h.call('s-me', 'message_task_kandev', { task_id: 'kid', prompt: 'one' });
    await h.call('s-me', 'message_task_kandev', { task_id: 'kid', prompt: 'two' });
    const http = await listen(createApp(createLogger('silent'), [createMessageRoutes(h.uow)]), '127.0.0.1', 0);
    cleanup.defer(() => http.close());
    const get = (path: string) => fetch(`http://127.0.0.1:${http.port}${path}`);
    const first = await get('/api/tasks/kid/messages?limit=1');
    const body = (await first.json()) as { messages: { content: string }[]; next_cursor: string };
    expect(body.messages.map((m) => m.content)).toEqual(['one']);
    const second = (await (await get(`/api/tasks/kid/messages?cursor=${body.next_cursor}`)).json()) as typeof body;
    expect(second).toMatchObject({
      task_id: 'kid',
      messages: [{ content: 'two', author: 'task:me' }],
      next_cursor: null,
    });
    expect((await get('/api/tasks/ghost/messages')).status).toBe(404);
    expect((await get('/api/tasks/kid/messages?limit=0')).status).toBe(400);
    expect((await get('/api/tasks/kid/messages?cursor=bad')).status).toBe(400);
  });
});
