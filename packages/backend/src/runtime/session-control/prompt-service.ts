import { z } from 'zod';
import { AppError, promptText } from '@kandev/protocol';
import type { Logger } from '../../platform/logger/logger';
import type { Message } from '../../catalogue/messages/message';
import { recordTaskPrompt } from '../prompt-queue/task-prompt';
import { supersedePendingQuestions } from '../parent-questions/parent-question-lifecycle';
import type { AgentSession } from '../sessions/agent-session';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import type { PromptKicker } from '../prompt-queue/drain-gate';
import type { QueuedPrompt } from '../prompt-queue/queued-prompt';

/** The same prompt rule as every other door (protocol's `promptText`): blank text is a 400, never queued. */
export const EnqueuePromptBodySchema = z.object({ prompt: promptText() }).strict();
export type EnqueuePromptBody = z.infer<typeof EnqueuePromptBodySchema>;

/** Sessions that will never run again take no prompt (a failed one does: it drains after a resume). */
const CLOSED_STATES: ReadonlySet<AgentSession['state']> = new Set(['completed', 'cancelled']);

export interface PromptServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  prompts: PromptKicker;
  logger: Logger;
}

/** An operator's prompts for one session: recorded and queued together, drained one turn at a time. */
export class PromptService {
  constructor(private readonly deps: PromptServiceDeps) {}

  /**
   * Records the prompt in the conversation and queues it for the session, superseding the task's
   * pending parent questions (one transaction), then kicks.
   */
  async enqueue(
    sessionId: string,
    body: EnqueuePromptBody,
  ): Promise<{ queued: QueuedPrompt; message: Message; superseded: string[] }> {
    const now = this.deps.clock().toISOString();
    const recorded = await this.deps.uow.transaction(async (stores) => {
      const session = await requireSession(stores, sessionId);
      if (CLOSED_STATES.has(session.state)) {
        throw new AppError('failed_precondition', `session ${sessionId} is ${session.state}; it takes no prompts`);
      }
      const task = await stores.tasks.findById(session.taskId);
      if (task !== undefined && task.archivedAt !== null) {
        throw new AppError('failed_precondition', `task ${session.taskId} is archived`);
      }
      const queued = await recordTaskPrompt(stores, {
        taskId: session.taskId,
        sessionId,
        author: 'operator',
        text: body.prompt,
        metadata: {},
        now,
      });
      // The operator's new input supersedes a question the task waits on, before the input can drain.
      const superseded = await supersedePendingQuestions(stores, session.taskId, 'operator_prompt', now);
      return { ...queued, superseded };
    });
    this.deps.logger.info(
      { sessionId, promptId: recorded.queued.id, supersededQuestions: recorded.superseded },
      'prompt queued',
    );
    void this.deps.prompts.kick(sessionId);
    return recorded;
  }

  /**
   * Withdraws a prompt the session has not been given yet (queued → cancelled, queue.changed). Its
   * conversation entry stays (what the operator wrote). A prompt already delivered is a 409: cancel
   * the turn instead. Cancelling a cancelled prompt again changes nothing.
   */
  async cancel(sessionId: string, promptId: string): Promise<QueuedPrompt> {
    const now = this.deps.clock().toISOString();
    const cancelled = await this.deps.uow.transaction(async (stores) => {
      await requireSession(stores, sessionId);
      const prompt = await stores.promptQueue.findById(promptId);
      if (prompt === undefined || prompt.sessionId !== sessionId) {
        throw new AppError('not_found', `prompt ${promptId} of session ${sessionId} not found`);
      }
      if (prompt.status === 'cancelled') return prompt;
      if (prompt.status !== 'queued' || !(await stores.promptQueue.cancelQueued(promptId, sessionId, now))) {
        const status = prompt.status === 'queued' ? 'dispatched' : prompt.status;
        throw new AppError(
          'failed_precondition',
          `prompt ${promptId} is ${status}: it was delivered to the agent; cancel the turn instead ` +
            `(POST /api/sessions/${sessionId}/cancel)`,
          { prompt_id: promptId, status },
        );
      }
      const after = await stores.promptQueue.findById(promptId);
      if (after === undefined) throw new AppError('internal', `prompt ${promptId} vanished while cancelling`);
      return after;
    });
    this.deps.logger.info({ sessionId, promptId }, 'queued prompt cancelled');
    return cancelled;
  }

  /** Every prompt of the session, oldest first. */
  async list(sessionId: string): Promise<QueuedPrompt[]> {
    await requireSession(this.deps.uow.read, sessionId);
    return this.deps.uow.read.promptQueue.listForSession(sessionId);
  }
}

async function requireSession(stores: Stores, sessionId: string): Promise<AgentSession> {
  const session = await stores.sessions.findById(sessionId);
  if (session === undefined) throw new AppError('not_found', `session ${sessionId} not found`);
  return session;
}
