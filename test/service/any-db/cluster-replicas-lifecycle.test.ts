// Two backend replicas over ONE database (PostgreSQL in the service-pg project; on SQLite shared leases
// are forced) polling one GitLab MR: each poll round reads the link once (the replica holding its poll
// lease), a transition queues its prompt once even when both replicas evaluate it at the same moment, and
// recording an evaluation is a compare-and-set on the link's lifecycle version.
import { createGitlabPort, createInProcessBackend } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { GITLAB_TEST_HOST } from '../../helpers/gitlab-server';
import { createMrLifecycleEnv, IID, POLICY, PROJECT } from '../../helpers/mr-lifecycle';

const cleanup = useCleanup();
const ME = 'reviewer-bot';
const SHARED = { ttlMs: 10_000, renewMs: 3_000, shared: true };

async function twoReplicas() {
  const t = await createMrLifecycleEnv(cleanup, { replicas: SHARED });
  const { backend: b } = await createInProcessBackend(cleanup, {
    db: t.env.db,
    clock: t.clock,
    gitlab: createGitlabPort(),
    random: () => 1,
    config: { gitlabPoll: POLICY, gitlabInsecureHosts: [GITLAB_TEST_HOST], replicas: SHARED },
  });
  return { t, b };
}

describe('several replicas: MR lifecycle', () => {
  it('polls each link once per round and queues one prompt per transition', async () => {
    const { t, b } = await twoReplicas();
    t.gitlab.setMr(PROJECT, IID, { state: 'opened', reviewers: [] });
    await Promise.all([t.poller.pollOnce(), b.poller.pollOnce()]); // baseline
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(1);
    t.gitlab.setMr(PROJECT, IID, { reviewers: [ME] });
    t.advance(POLICY.intervalMs); // the poll lease ran out: whoever polls first takes it
    await Promise.all([b.poller.pollOnce(), t.poller.pollOnce()]);
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(2);
    expect(await t.queued()).toEqual([expect.stringContaining('your review was requested')]);
  });

  it('two replicas evaluating the same transition at once queue its prompt once', async () => {
    const { t, b } = await twoReplicas();
    t.gitlab.setMr(PROJECT, IID, { state: 'opened', reviewers: [] });
    await t.poller.pollOnce(); // baseline: not requested
    const target = (await t.env.uow.read.mrLifecycle.findTarget(t.linkId))!;
    const event = { ...target, state: 'opened' as const, headSha: null, reviewers: { valid: true, usernames: [ME] } };
    await Promise.all([t.evaluator.handle(event), b.evaluator.handle(event)]);
    expect(await t.queued()).toEqual([expect.stringContaining('your review was requested')]);
    // The other evaluation either lost the compare-and-set or ran after the first committed and found
    // nothing new (then the last evaluation on record is its 'unchanged'): the transition is news once.
    const events = await t.env.uow.read.events.after(0, { taskId: t.taskId }, 1000);
    const lifecycle = events.filter((e) => e.type === 'mr.lifecycle');
    expect(lifecycle.map((e) => e.data)).toEqual([expect.objectContaining({ prompted: ['review_requested'] })]);
  });

  it('recording an evaluation moves the lifecycle version by compare-and-set', async () => {
    const { t } = await twoReplicas();
    const store = t.env.uow.read.mrLifecycle;
    const { version } = (await store.loadForEvaluation(t.linkId))!;
    expect(await store.claimEvaluation(t.linkId, version)).toBe(true);
    expect(await store.claimEvaluation(t.linkId, version)).toBe(false); // read before the first: lost
    expect((await store.loadForEvaluation(t.linkId))!.version).toBe(version + 1);
    const pr = t.env.uow.read.prLifecycle;
    expect(await pr.claimEvaluation('no-such-link', 0)).toBe(false);
  });
});
