// Permission requests under policy ask, in process on a fresh database per test: the backend's
// PermissionRequests decides what agentctl forwards. The timeout's timer is injected and fired by the
// test, so nothing sleeps; every "nothing else happened" check follows the settled decision.
import type { PermissionRequestInfo } from '@kandev/protocol';
import { createToolHarness, type StartTimer } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';

const request = (sessionId: string, taskId: string): PermissionRequestInfo => ({
  requestId: `r-${sessionId}`,
  sessionId,
  taskId,
  toolCallId: 'tc-1',
  title: 'Run npm install',
  toolKind: 'execute',
  options: [
    { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
});

describe('permission requests (in process)', () => {
  const cleanup = useCleanup();

  async function setup() {
    const timers: (() => void)[] = [];
    const startTimer: StartTimer = (_ms, fire) => {
      timers.push(fire);
      return () => timers.splice(timers.indexOf(fire), 1);
    };
    const harness = await createToolHarness(cleanup, { startTimer });
    await harness.workspace('w');
    await harness.task('t1');
    await harness.session('s1', 't1');
    const pending = async () => (await harness.deps.questions.list({ state: 'pending', taskId: 't1' })).questions;
    // The question row is visible (to another connection, on PostgreSQL) a moment before the service
    // starts its timer: wait for the timer, then fire.
    const fireTimeouts = async () => {
      while (timers.length === 0) await new Promise((resolve) => setImmediate(resolve));
      [...timers].forEach((fire) => fire());
    };
    return { harness, pending, fireTimeouts };
  }

  async function untilPending(pending: () => Promise<{ id: string }[]>): Promise<string> {
    for (;;) {
      const [question] = await pending();
      if (question !== undefined) return question.id;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  test('answered with an option: its id; the question is answered', async () => {
    const { harness, pending } = await setup();
    const decided = harness.deps.permissions.decide(request('s1', 't1'), new AbortController().signal);
    const id = await untilPending(pending);
    await harness.deps.questions.answer(id, { answers: [{ question_index: 0, option: 'Allow once' }] });
    await expect(decided).resolves.toBe('allow');
  });

  test('the injected timeout fires: null (reject) and the question is expired', async () => {
    const { harness, pending, fireTimeouts } = await setup();
    const decided = harness.deps.permissions.decide(request('s1', 't1'), new AbortController().signal);
    const id = await untilPending(pending);
    await fireTimeouts();
    await expect(decided).resolves.toBeNull();
    const { question } = await harness.deps.questions.get(id);
    expect(question).toMatchObject({ kind: 'permission', state: 'expired', closedReason: 'timeout' });
    await expect(
      harness.deps.questions.answer(id, { answers: [{ question_index: 0, option: 'Allow once' }] }),
    ).rejects.toMatchObject({ code: 'failed_precondition' });
  });

  test('the agent exits: null and the question closes session_stopped; the stream dropping: cancelled', async () => {
    const { harness, pending } = await setup();
    const exited = harness.deps.permissions.decide(request('s1', 't1'), new AbortController().signal);
    const first = await untilPending(pending);
    harness.deps.permissions.agentGone('s1');
    await expect(exited).resolves.toBeNull();
    expect((await harness.deps.questions.get(first)).question).toMatchObject({ closedReason: 'session_stopped' });

    const stream = new AbortController();
    const dropped = harness.deps.permissions.decide({ ...request('s1', 't1'), requestId: 'r-2' }, stream.signal);
    const second = await untilPending(pending);
    stream.abort();
    await expect(dropped).resolves.toBeNull();
    expect((await harness.deps.questions.get(second)).question).toMatchObject({ closedReason: 'cancelled' });
  });

  test('a request naming another task than its session, or an unknown session, is rejected without a question', async () => {
    const { harness, pending } = await setup();
    await harness.task('t2');
    const signal = new AbortController().signal;
    await expect(harness.deps.permissions.decide(request('s1', 't2'), signal)).resolves.toBeNull();
    await expect(harness.deps.permissions.decide(request('nope', 't1'), signal)).resolves.toBeNull();
    expect(await pending()).toEqual([]);
  });

  test('an autopilot root (capability none): rejected at once, no question', async () => {
    const { harness, pending } = await setup();
    await harness.task('root', { autopilot: true });
    await harness.session('sr', 'root', { questionCapability: 'none' });
    await expect(
      harness.deps.permissions.decide(request('sr', 'root'), new AbortController().signal),
    ).resolves.toBeNull();
    expect((await harness.deps.questions.list({ taskId: 'root' })).questions).toEqual([]);
    expect(await pending()).toEqual([]);
  });

  test('at boot, a permission question left pending by an earlier process is cancelled; a user question stays', async () => {
    const { harness } = await setup();
    const base = {
      taskId: 't1',
      sessionId: 's1',
      questions: [{ id: 'q1', prompt: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }],
      context: null,
      state: 'pending' as const,
      answers: null,
      answeredBy: null,
      closedReason: null,
      answerDelivery: null,
      createdAt: '2026-12-01T09:00:00.000Z',
      answeredAt: null,
      expiresAt: '2999-01-01T00:00:00.000Z',
    };
    await harness.uow.read.questions.insert({ ...base, id: 'perm', callId: 'permission:r-9', kind: 'permission' });
    await harness.uow.read.questions.insert({ ...base, id: 'user', callId: 'call-9', kind: 'user' });
    await harness.deps.questions.expireStale();
    expect((await harness.deps.questions.get('perm')).question).toMatchObject({
      state: 'cancelled',
      closedReason: 'cancelled',
    });
    expect((await harness.deps.questions.get('user')).question.state).toBe('pending');
  });
});
