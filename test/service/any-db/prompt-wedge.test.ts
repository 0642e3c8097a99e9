// A blank prompt once wedged a session (202, agentctl refused it, every later prompt
// stayed queued, cancel and resume did not help). Now every door refuses blank text (400, nothing
// stored) and a prompt agentctl rejects for good ends failed with the reason while the queue moves on.
import { AppError } from '@kandev/protocol';
import { newQueuedPrompt, recordTaskPrompt } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { createTurnHarness, finishWhenRunning, type TurnHarness } from '../../helpers/turn-harness';

/** The probe's blank texts, and whitespace of other kinds. */
const BLANKS = ['   ', '\t\n', '\u00a0', '', '\u2003\u3000', '\ufeff', '\u0085'];

async function rowCounts(h: TurnHarness): Promise<{ prompts: number; messages: number }> {
  const count = async (table: string) => Number((await h.db(table).count({ n: '*' }))[0]?.n);
  return { prompts: await count('prompt_queue'), messages: await count('messages') };
}

function deliveries(h: TurnHarness, sessionId: string): string[] {
  return h.agentctl.delivered.filter((d) => d.sessionId === sessionId).map((d) => d.text);
}

describe('a blank prompt never wedges a session', () => {
  const cleanup = useCleanup();

  test('REST refuses blank text with 400 and stores nothing; the next prompt is delivered', async () => {
    const h = await createTurnHarness(cleanup);
    const api = await h.serve();
    const id = await h.readySession();
    const before = await rowCounts(h);

    for (const blank of BLANKS) {
      const refused = await api.request<{ error: { code: string; message: string } }>(
        'POST',
        `/api/sessions/${id}/prompts`,
        { prompt: blank },
      );
      expect({ blank, status: refused.status, code: refused.body.error.code }).toEqual({
        blank,
        status: 400,
        code: 'invalid_argument',
      });
      expect(refused.body.error.message).toMatch(/^invalid request body: prompt: must not be (empty|blank)/);
    }
    expect(await rowCounts(h)).toEqual(before);

    const accepted = await api.queuePrompt(id, 'do the work');
    expect(accepted.status).toBe(202);
    await finishWhenRunning(h, id, accepted.body.queued_prompt_id);
    await h.untilDrained(id);
    expect(await api.prompts(id)).toMatchObject([{ prompt: 'do the work', status: 'completed', error: null }]);
    expect(deliveries(h, id)).toEqual(['do the work']);
    expect(h.agentctl.promptCalls.map((c) => c.outcome)).toEqual(['delivered']);
  });

  test('a prompt agentctl rejects for good ends failed with the reason (REST shows it); the next one runs', async () => {
    const h = await createTurnHarness(cleanup);
    const api = await h.serve();
    const id = await h.readySession();
    h.agentctl.failNext('Prompt', new AppError('invalid_argument', 'agentctl Prompt: prompt_id is required'));
    const rejected = (await api.queuePrompt(id, 'first')).body.queued_prompt_id;
    const next = (await api.queuePrompt(id, 'second')).body.queued_prompt_id;

    await finishWhenRunning(h, id, next);
    await h.untilDrained(id);
    await h.untilState(id, 'waiting_for_input');
    expect(await api.prompts(id)).toMatchObject([
      {
        id: rejected,
        status: 'failed',
        error: 'agentctl rejected the prompt: agentctl Prompt: prompt_id is required',
        finished_at: expect.any(String),
      },
      { id: next, status: 'completed', error: null },
    ]);
    expect(deliveries(h, id)).toEqual(['second']);
  });

  test('a blank prompt queued before the rule (a wedged database) fails at agentctl; the queue drains', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const task = (await h.uow.read.sessions.findById(id))?.taskId ?? '';
    const at = h.clock().toISOString();
    const blank = newQueuedPrompt({
      id: 'legacy-blank',
      taskId: task,
      sessionId: id,
      prompt: '\u00a0',
      source: 'operator',
      createdAt: at,
    });
    await h.uow.read.promptQueue.enqueue(blank);
    const after = await h.prompt(id, 'after the blank one');

    await finishWhenRunning(h, id, after);
    const settled = await h.untilDrained(id);
    expect(settled).toMatchObject([
      { id: blank.id, status: 'failed', error: 'agentctl rejected the prompt: text must not be blank' },
      { id: after, status: 'completed' },
    ]);
    expect(h.agentctl.promptCalls.map((c) => c.outcome)).toEqual(['rejected', 'delivered']);
    expect(deliveries(h, id)).toEqual(['after the blank one']);
  });

  test('doors that compose their text (automation prompts, answers) apply the same rule: nothing stored', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const task = (await h.uow.read.sessions.findById(id))?.taskId ?? '';
    const before = await rowCounts(h);
    for (const blank of BLANKS) {
      const queued = h.uow.transaction((stores) =>
        recordTaskPrompt(stores, {
          taskId: task,
          author: 'operator',
          text: blank,
          metadata: {},
          now: h.clock().toISOString(),
        }),
      );
      await expect(queued).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/blank/) });
    }
    expect(await rowCounts(h)).toEqual(before);
  });
});
