// A failed refresh never undoes a committed batch, as a property over random sequences against one real
// backend + agentctl: additions, removals, agentctl paused around a batch, and repairs (resume, or
// waiting for the reconciler). At every point the provider tools a session lists are within the
// committed providers plus those of removals agentctl has not acknowledged; after a repair they are
// exactly the committed providers.
import fc from 'fast-check';
import type { LaunchedSession } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp } from '../../helpers/mcp';
import { providersIn, startLiveBackend, whileStopped } from '../../helpers/live-updates';
import { waitUntil } from '../../helpers/wait';

const POOL = [
  { remote_url: 'https://github.com/acme/a' },
  { remote_url: 'git@github.com:acme/b.git' },
  { remote_url: 'https://gitlab.com/acme/c' },
  { remote_url: 'git@gitlab.com:acme/d.git' },
  { local_path: '/srv/e' },
  { local_path: '/srv/f' },
];

type Step =
  | { kind: 'add'; sources: (typeof POOL)[number][]; paused: boolean }
  | { kind: 'remove'; pick: number; paused: boolean }
  | { kind: 'repair'; how: 'resume' | 'reconciler' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    sources: fc.subarray(POOL, { minLength: 1, maxLength: 3 }),
    paused: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(), paused: fc.boolean() }),
  fc.record({ kind: fc.constant('repair' as const), how: fc.constantFrom('resume' as const, 'reconciler' as const) }),
);

/** What the test knows: the task's committed providers and providers whose removal is unacknowledged. */
interface Model {
  taskId: string;
  session: LaunchedSession;
  committed: string[];
  unacknowledged: Set<string>;
}

describe('live source updates: property', () => {
  const cleanup = useCleanup();

  test('listed provider tools ⊆ committed ∪ unacknowledged removals; = committed after repair', async () => {
    const { backend, api, workspaceId } = await startLiveBackend(cleanup, {
      KANDEV_AGENTCTL_TIMEOUT_MS: '300',
      KANDEV_REFRESH_RETRY_BASE_MS: '50',
    });
    const logs = backend.logs;
    const seen = { failedRefreshes: 0, unacknowledgedRemovals: 0, resumes: 0, reconciled: 0 };
    const pid = backend.ready.agentctl.pid;
    const paused = <T>(yes: boolean, work: () => Promise<T>) => (yes ? whileStopped(pid, work) : work());

    const listed = async (model: Model) => providersIn((await api.session(model.session.session_id)).tools ?? []);
    const checkBound = async (model: Model) => {
      const allowed = new Set([...model.committed, ...model.unacknowledged]);
      const live = await listed(model);
      const outside = live.filter((provider) => !allowed.has(provider));
      expect({ live, outside }).toEqual({ live, outside: [] });
    };
    const checkRepaired = async (model: Model) => {
      model.unacknowledged.clear();
      expect(await listed(model)).toEqual(model.committed);
    };

    async function apply(model: Model, step: Step): Promise<void> {
      if (step.kind === 'repair') return repair(model, step.how);
      const before = model.committed;
      let refresh: string;
      if (step.kind === 'add') {
        const response = await paused(step.paused, () => api.addSources(model.taskId, step.sources));
        expect([200, 201]).toContain(response.status);
        ({ providers: model.committed } = response.body);
        refresh = response.body.refresh.status;
      } else {
        const ids = (await api.getTask(model.taskId)).repository_ids;
        if (ids.length === 0) return;
        const response = await paused(step.paused, () =>
          api.removeSource(model.taskId, ids[step.pick % ids.length] ?? ''),
        );
        expect(response.status).toBe(200);
        ({ providers: model.committed } = response.body);
        refresh = response.body.refresh.status;
      }
      expect((await api.getTask(model.taskId)).providers).toEqual(model.committed); // committed, whatever the refresh did
      if (refresh === 'applied') model.unacknowledged.clear(); // the whole desired set was acknowledged
      if (refresh !== 'failed') return;
      seen.failedRefreshes += 1;
      for (const provider of before.filter((p) => !model.committed.includes(p))) {
        model.unacknowledged.add(provider);
        seen.unacknowledgedRemovals += 1;
      }
    }

    async function repair(model: Model, how: 'resume' | 'reconciler'): Promise<void> {
      if (how === 'resume') {
        const resumed = await api.resume(model.session.session_id);
        expect(resumed.status).toBe(200);
        model.session = resumed.body;
        seen.resumes += 1;
      } else {
        seen.reconciled += 1;
        await waitUntil(
          async () => {
            const s = await api.session(model.session.session_id);
            return s.applied_revision === s.revision && s.tools !== null;
          },
          { timeoutMs: 10_000, logs, what: 'the reconciler to catch up' },
        );
      }
      await checkRepaired(model);
    }

    await fc.assert(
      fc.asyncProperty(fc.subarray(POOL), fc.array(stepArb, { minLength: 1, maxLength: 6 }), async (initial, steps) => {
        const task = await api.task(workspaceId, { title: 'p' });
        if (initial.length > 0) expect((await api.addSources(task.id, initial)).status).toBe(201);
        const session = await api.launch(task.id);
        const model: Model = {
          taskId: task.id,
          session,
          committed: session.launch_config.providers,
          unacknowledged: new Set(),
        };
        await checkRepaired(model);
        for (const step of steps) {
          await apply(model, step);
          await checkBound(model);
        }
        await repair(model, 'reconciler');
        const mcp = await connectMcp(cleanup, model.session.mcp_url, model.session.mcp_token);
        expect(providersIn(await mcp.toolNames())).toEqual(model.committed);
        await mcp.client.close();
      }),
      {
        numRuns: 12,
        interruptAfterTimeLimit: 90_000,
        markInterruptAsFailure: true,
        // Always run once: a removal agentctl does not acknowledge, resume, a failed addition, the reconciler.
        examples: [
          [
            [POOL[0], POOL[2]],
            [
              { kind: 'remove', pick: 0, paused: true },
              { kind: 'repair', how: 'resume' },
              { kind: 'add', sources: [POOL[1]], paused: true },
              { kind: 'repair', how: 'reconciler' },
            ],
          ],
        ] as [(typeof POOL)[number][], Step[]][],
      },
    );
    expect(seen.failedRefreshes).toBeGreaterThanOrEqual(2);
    expect(seen.unacknowledgedRemovals).toBeGreaterThanOrEqual(1);
    expect(seen.resumes).toBeGreaterThanOrEqual(1);
    expect(seen.reconciled).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
