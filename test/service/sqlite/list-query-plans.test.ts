// The lists operators page through read an index in their own order on SQLite: each page is a range
// (or an ordered walk) of one index, never a scan of the bare table or a sort of every matching row (which is what would make a
// page of 1,000 tasks slow). The statements are captured from the stores as they run, then explained.
import { createInProcessBackend } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';

interface Query {
  sql: string;
  bindings: readonly (string | number | boolean | null)[];
}

describe('list query plans (SQLite)', () => {
  const cleanup = useCleanup();

  test('task, session and question pages each search one index in order', async () => {
    const env = await createInProcessBackend(cleanup);
    const stores = env.backend.uow.read;
    const captured: Query[] = [];
    env.db.on('query', (query: Query) => captured.push(query));
    /** The plan of the statement `run` sends last. */
    const planOf = async (run: () => Promise<unknown>): Promise<string[]> => {
      await run();
      const query = captured[captured.length - 1];
      if (query === undefined) throw new Error('no statement captured');
      const rows = await env.db.raw<{ detail: string }[]>(`explain query plan ${query.sql}`, query.bindings);
      return rows.map((row) => row.detail);
    };
    const after = { at: '2026-12-01T00:00:00.000Z', id: 't' };
    const page = { workspaceId: 'w', includeArchived: false, now: after.at, after, limit: 201 };

    const plans = {
      newest: await planOf(() => stores.tasks.list({ ...page, sort: 'created_desc' })),
      oldest: await planOf(() => stores.tasks.list({ ...page, sort: 'created_asc' })),
      updated: await planOf(() => stores.tasks.list({ ...page, sort: 'updated_desc' })),
      sessions: await planOf(() => stores.sessions.list({ limit: 51, newestFirst: true })),
      failedSessions: await planOf(() => stores.sessions.list({ limit: 51, newestFirst: true, states: ['failed'] })),
      newestSessions: await planOf(() => stores.sessions.newestOfTasks(['a', 'b'])),
      questions: await planOf(() => stores.questions.listPage({ now: after.at, state: 'answered', limit: 51 })),
    };
    for (const [name, plan] of Object.entries(plans)) {
      expect({ name, plan: plan.filter((step) => /^SCAN \w+$|TEMP B-TREE/.test(step)) }).toEqual({ name, plan: [] });
    }
    expect(plans.sessions.join('\n')).toContain('sessions_created_at_id_index');
    expect(plans.newest.join('\n')).toContain('tasks_workspace_id_created_at_id_index');
    expect(plans.updated.join('\n')).toContain('tasks_workspace_id_updated_at_id_index');
    expect(plans.failedSessions.join('\n')).toContain('sessions_state_created_at_id_index');
    expect(plans.newestSessions.join('\n')).toContain('sessions_task_id_created_at_id_index');
  });
});
