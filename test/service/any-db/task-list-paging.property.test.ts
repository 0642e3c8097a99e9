// GET /api/tasks against a model, over a real database: for any tasks (creation and update times that
// tie), any sort, any title search, state filter and page size, following next_cursor returns exactly
// the matching tasks in the sort's order (ties by id, the same direction), each once.
import fc from 'fast-check';
import { TASK_STATES } from '@kandev/protocol';
import { createApp, createInProcessBackend, listen, taskRow } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';

const SORTS = ['created_desc', 'created_asc', 'updated_desc', 'updated_asc'] as const;
const minute = (n: number) => new Date(Date.UTC(2026, 11, 1, 0, n)).toISOString();
const taskArb = fc.record({
  created: fc.nat(3),
  updated: fc.nat(3),
  title: fc.constantFrom('Alpha', 'alpha beta', 'Gamma', 'beta_1', '100% done'),
  state: fc.constantFrom(...TASK_STATES),
});

describe('GET /api/tasks paging (property)', () => {
  const cleanup = useCleanup();

  test('every sort, search and filter pages through exactly the matching tasks in order', async () => {
    const env = await createInProcessBackend(cleanup);
    const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
    cleanup.defer(() => server.close());
    const api = new BackendApi(`http://127.0.0.1:${server.port}`);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(taskArb, { maxLength: 12 }),
        fc.constantFrom(...SORTS),
        fc.option(fc.constantFrom('alpha', 'BETA', '_', '%', 'zzz'), { nil: undefined }),
        fc.option(fc.subarray([...TASK_STATES], { minLength: 1 }), { nil: undefined }),
        fc.integer({ min: 1, max: 5 }),
        async (specs, sort, q, states, limit) => {
          run += 1;
          const workspaceId = await api.workspace(`w${run}`);
          const tasks = specs.map((spec, n) => ({
            id: `r${run}-t${String(n).padStart(2, '0')}`,
            createdAt: minute(spec.created),
            updatedAt: minute(spec.created + spec.updated),
            title: spec.title,
            state: spec.state,
          }));
          await env.backend.uow.transaction(async (stores) => {
            for (const task of tasks) await stores.tasks.insert(taskRow(task.id, workspaceId, task.createdAt, task));
          });
          const column = sort.startsWith('created') ? 'createdAt' : 'updatedAt';
          const direction = sort.endsWith('desc') ? -1 : 1;
          const expected = tasks
            .filter((task) => q === undefined || task.title.toLowerCase().includes(q.toLowerCase()))
            .filter((task) => states === undefined || states.includes(task.state))
            .sort((a, b) => direction * (a[column].localeCompare(b[column]) || a.id.localeCompare(b.id)))
            .map((task) => task.id);

          const query = new URLSearchParams({ workspace_id: workspaceId, sort, limit: String(limit) });
          if (q !== undefined) query.set('q', q);
          if (states !== undefined) query.set('state', states.join(','));
          const seen: string[] = [];
          let cursor: string | null = null;
          do {
            if (cursor !== null) query.set('cursor', cursor);
            const page: { status: number; body: { tasks: { id: string }[]; next_cursor: string | null } } =
              await api.request('GET', `/api/tasks?${query.toString()}`);
            expect(page.status).toBe(200);
            expect(page.body.tasks.length).toBeLessThanOrEqual(limit);
            seen.push(...page.body.tasks.map((task) => task.id));
            cursor = page.body.next_cursor;
          } while (cursor !== null);
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });
});
