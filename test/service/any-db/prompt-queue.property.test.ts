// The prompt queue under random faults: random sequences of prompts (blank ones too),
// cancels, refusals (for good, for now, ambiguous), agent crashes, stops and resumes, driven over REST
// against the real queue and drainer (real SQLite; the fake agentctl keeps agentctl's per-id ledger).
// Once a sequence settles, every prompt ended delivered exactly once and in order, or in a terminal
// state with a reason, and nothing is left queued. Settled is a barrier, never a sleep: a last prompt
// is queued and completes, which the one-turn-at-a-time FIFO allows only after every earlier one.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { AppError, isBlankText } from '@kandev/protocol';
import { newQueuedPrompt } from '@kandev/backend/testing';
import type { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { createTurnHarness, type TurnHarness } from '../../helpers/turn-harness';
import { waitUntil } from '../../helpers/wait';

type Op =
  | { kind: 'prompt'; text: string }
  /** A blank prompt already in the queue (stored before the rule): agentctl refuses it every time. */
  | { kind: 'legacy'; text: string }
  | { kind: 'finish' }
  | { kind: 'cancel' }
  | { kind: 'reject' }
  | { kind: 'refuse' }
  | { kind: 'ambiguous'; afterApplying: boolean }
  | { kind: 'crash' }
  | { kind: 'stop' }
  | { kind: 'resume' };

const blankArb = fc.constantFrom('   ', '\t\n', '\u00a0', '\u3000\u0085');
const textArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('fix the bug', 'write a test', ' spaced out ', 'ok') },
  { weight: 1, arbitrary: fc.oneof(fc.constant(''), blankArb) },
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: textArb.map((text) => ({ kind: 'prompt' as const, text })) },
  { weight: 1, arbitrary: blankArb.map((text) => ({ kind: 'legacy' as const, text })) },
  { weight: 5, arbitrary: fc.constant({ kind: 'finish' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reject' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'refuse' as const }) },
  { weight: 1, arbitrary: fc.boolean().map((afterApplying) => ({ kind: 'ambiguous' as const, afterApplying })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'crash' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'stop' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resume' as const }) },
);

/** Fewer ambiguous failures than re-sends, so a prompt in flight never outlasts its retry budget. */
const sequenceArb = fc
  .array(opArb, { minLength: 1, maxLength: 24 })
  .filter((ops) => ops.filter((op) => op.kind === 'ambiguous').length <= 3);

const RETRY = { baseMs: 1, maxDelayMs: 5, maxAttempts: 8 };

class Run {
  /** Ids of the prompts REST accepted, in order. */
  readonly accepted: string[] = [];

  constructor(
    private readonly h: TurnHarness,
    private readonly api: BackendApi,
    readonly id: string,
  ) {}

  async apply(op: Op): Promise<void> {
    const { h, api, id } = this;
    switch (op.kind) {
      case 'prompt':
        return this.prompt(op.text);
      case 'legacy':
        return this.legacy(op.text);
      case 'finish':
        if ((h.agentctl.agents.get(id)?.currentPromptId ?? null) !== null) h.agentctl.finishTurn(id, { text: 'ok' });
        break;
      case 'cancel':
        // 200 on a live session (cancelled or not), 409 on an ended one.
        expect([200, 409]).toContain((await api.cancelTurn(id)).status);
        break;
      case 'reject':
        h.agentctl.failNext('Prompt', new AppError('invalid_argument', 'agentctl Prompt: not a prompt'));
        break;
      case 'refuse':
        h.agentctl.failNext('Prompt', new AppError('failed_precondition', 'agentctl Prompt: not now'));
        break;
      case 'ambiguous':
        h.agentctl.failNext('Prompt', new AppError('unavailable', 'agentctl Prompt: reset'), op);
        break;
      case 'crash': {
        const agent = h.agentctl.agents.get(id);
        if (agent !== undefined && agent.status !== 'exited') h.agentctl.crashAgent(id);
        break;
      }
      case 'stop':
        expect((await api.stopSession(id)).status).toBe(200);
        break;
      case 'resume':
        // 409 only while a start is under way.
        expect([200, 409]).toContain((await api.resumeSession(id)).status);
        break;
    }
    await h.turns.lanes.idle();
  }

  private async prompt(text: string): Promise<void> {
    const before = (await this.h.queue(this.id)).length;
    const response = await this.api.queuePrompt(this.id, text);
    if (isBlankText(text)) {
      expect(response.status).toBe(400);
      expect((await this.h.queue(this.id)).length).toBe(before); // refused: nothing stored
    } else if (response.status === 202) {
      this.accepted.push(response.body.queued_prompt_id);
    } else {
      // Only a stopped session takes no prompts (until a resume).
      expect({ status: response.status, state: await this.h.state(this.id) }).toEqual({
        status: 409,
        state: 'cancelled',
      });
    }
    await this.h.turns.lanes.idle();
  }

  private async legacy(text: string): Promise<void> {
    const { h, id } = this;
    const session = await h.uow.read.sessions.findById(id);
    const at = h.clock().toISOString();
    const prompt = newQueuedPrompt({
      id: randomUUID(),
      taskId: session?.taskId ?? '',
      sessionId: id,
      prompt: text,
      source: 'operator',
      createdAt: at,
    });
    await h.uow.read.promptQueue.enqueue(prompt);
    this.accepted.push(prompt.id);
    await h.turns.drainer.kick(id);
    await h.turns.lanes.idle();
  }

  /** No more faults; an ended session is resumed; the barrier prompt runs every turn up to its own. */
  async settle(): Promise<string> {
    const { h, api, id } = this;
    h.agentctl.clearScheduled();
    await h.turns.lanes.idle();
    const state = await h.state(id);
    if (state === 'failed' || state === 'cancelled') expect((await api.resumeSession(id)).status).toBe(200);
    const barrier = await api.queuePrompt(id, 'barrier');
    expect(barrier.status).toBe(202);
    await waitUntil(
      async () => {
        if ((h.agentctl.agents.get(id)?.currentPromptId ?? null) !== null) h.agentctl.finishTurn(id);
        return (await h.uow.read.promptQueue.findById(barrier.body.queued_prompt_id))?.status === 'completed';
      },
      { timeoutMs: 10_000, what: `the barrier prompt of ${id} to complete` },
    );
    await h.turns.lanes.idle();
    return barrier.body.queued_prompt_id;
  }
}

describe('prompt queue under random faults (fast-check)', () => {
  const cleanup = useCleanup();

  test('every prompt ends delivered once, in order, or failed with a reason; nothing stays queued', async () => {
    const h = await createTurnHarness(cleanup, { promptRetry: RETRY });
    const api = await h.serve();
    await fc.assert(
      fc.asyncProperty(sequenceArb, async (ops) => {
        h.agentctl.clearScheduled();
        const run = new Run(h, api, await h.readySession());
        for (const op of ops) await run.apply(op);
        const barrier = await run.settle();

        const rows = await api.prompts(run.id);
        // Exactly what REST accepted, in order: no blank prompt was stored, nothing was lost.
        expect(rows.map((row) => row.id)).toEqual([...run.accepted, barrier]);
        const delivered = h.agentctl.delivered.filter((d) => d.sessionId === run.id).map((d) => d.promptId);
        // At most once each, and in queue order.
        expect(delivered).toEqual(rows.map((row) => row.id).filter((rowId) => delivered.includes(rowId)));
        for (const row of rows) {
          const times = delivered.filter((rowId) => rowId === row.id).length;
          const outcome = { id: row.id, status: row.status, times, reason: row.error !== null && row.error !== '' };
          if (row.status === 'completed') expect(outcome).toEqual({ ...outcome, times: 1, reason: false });
          else expect(outcome).toEqual({ ...outcome, status: 'failed', reason: true });
          if (row.error?.startsWith('agentctl rejected') === true) expect(times).toBe(0);
          if (isBlankText(row.prompt)) expect(outcome).toMatchObject({ status: 'failed', times: 0 });
        }
        expect(await h.state(run.id)).toBe('waiting_for_input');
      }),
      { seed: 20261201, numRuns: 30 },
    );
  }, 180_000);
});
