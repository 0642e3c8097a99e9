import type { PermissionRequestInfo } from '@kandev/protocol';
import type { Replicas } from '../../platform/cluster/replicas';
import type { Logger } from '../../platform/logger/logger';
import type { PromptKicker } from '../prompt-queue/drain-gate';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { AgentSession } from '../sessions/agent-session';
import type { StartTimer } from '../questions/question-service';
import { askParentQuestion } from '../parent-questions/parent-question-ask';
import { closeQuestion } from '../parent-questions/parent-question-lifecycle';
import { parentGrantor } from '../../catalogue/permission-grants/grant';
import { type ChosenOption, optionFromReply, toPermissionQuestion } from './permission-question';

// An autopilot child's permission request (capability parent): a parent question (the usual flow: the
// parent's prompt is queued, the child's other prompts are gated). The parent answers with
// message_task_kandev reply_to_question_id; the reply text is mapped to one of the agent's options by
// optionFromReply (an option's name or id; none or several: reject). The answer also reaches the child
// as a message, as for any parent question. No answer within the timeout: the question is closed
// stale ('timeout') and the agent gets reject; the agent exiting or the stream dropping closes it
// stale ('session_ended').

export interface PermissionParentDeps {
  uow: UnitOfWork;
  clock: () => Date;
  timeoutMs: number;
  logger: Logger;
  startTimer: StartTimer;
  prompts?: PromptKicker;
  /**
   * A nudge whenever a parent question changed on any replica (platform/cluster/replicas.ts), or a resync
   * after nudges may have been missed: a held request re-reads its question.
   */
  replicas: Pick<Replicas, 'subscribe'>;
}

export class PermissionParentQuestions {
  /** Held requests by parent question id: the parent's reply text, or null (closed without one). */
  private readonly waiting = new Map<string, (reply: string | null) => void>();

  constructor(private readonly deps: PermissionParentDeps) {
    // The parent's reply may reach another replica (its own agentctl's): the committed row decides.
    deps.replicas.subscribe('parent_question', {
      signal: (questionId) => {
        if (this.waiting.has(questionId)) void this.reread(questionId);
      },
      resync: () => {
        for (const questionId of [...this.waiting.keys()]) void this.reread(questionId);
      },
    });
  }

  /** message_task_kandev answered a parent question: a held permission request gets the text. */
  answered(questionId: string, reply: string): void {
    this.finish(questionId, reply);
  }

  /** Settles a held request once; later calls are no-ops. */
  private finish(questionId: string, reply: string | null): void {
    const resolve = this.waiting.get(questionId);
    this.waiting.delete(questionId);
    resolve?.(reply);
  }

  /** The row says answered (its text), closed (null), or still pending (keep waiting). Never throws. */
  private async reread(questionId: string): Promise<void> {
    try {
      const question = await this.deps.uow.read.parentQuestions.findById(questionId);
      if (question === undefined || question.status === 'pending') return;
      this.finish(questionId, question.status === 'answered' ? question.answer : null);
    } catch (err) {
      this.deps.logger.error({ err, questionId }, 'could not read a permission parent question');
    }
  }

  /** The option the parent's reply names, and which task replied; null: reject. */
  async ask(session: AgentSession, request: PermissionRequestInfo, signal: AbortSignal): Promise<ChosenOption | null> {
    const asked = toPermissionQuestion(request);
    const names = request.options.map((o) => o.name).join(', ');
    const { clock, uow } = this.deps;
    const result = await askParentQuestion(
      uow,
      clock,
      {
        sessionId: session.id,
        taskId: session.taskId,
        workspaceId: session.launchConfig.workspaceId,
        session,
        callId: `permission:${request.requestId}`,
      },
      { ...asked.args, blocked_reason: `The agent waits for permission; reply with one of: ${names}`.slice(0, 200) },
    );
    const log = this.deps.logger.child({ questionId: result.question.id, sessionId: session.id });
    // The child already waits on another parent question: this request cannot be told apart from it.
    if (result.outcome !== 'asked') {
      log.info({ outcome: result.outcome }, 'the child already has a pending parent question; permission rejected');
      return null;
    }
    if (result.kickSessionId !== null) void this.deps.prompts?.kick(result.kickSessionId);
    log.info('permission parent question waits for the parent');
    const id = result.question.id;
    const reply = await new Promise<string | null>((resolve) => {
      const onAbort = () => void this.close(id, 'session_ended');
      const stopTimer = this.deps.startTimer(this.deps.timeoutMs, () => void this.close(id, 'timeout'));
      this.waiting.set(id, (value) => {
        stopTimer();
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      });
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      // A reply committed before the request was registered here (on this or another replica).
      void this.reread(id);
    });
    const optionId = reply === null ? null : optionFromReply(reply, request.options);
    return optionId === null
      ? null
      : { optionId, chosenBy: parentGrantor(await this.answeredBy(id, result.question.parentTaskId)) };
  }

  /** The task whose reply settled the question (the current parent may differ from the one asked). */
  private async answeredBy(questionId: string, askedParent: string): Promise<string> {
    try {
      const question = await this.deps.uow.read.parentQuestions.findById(questionId);
      return question?.answeredByTaskId ?? askedParent;
    } catch (err) {
      this.deps.logger.error({ err, questionId }, 'could not read who answered a permission parent question');
      return askedParent;
    }
  }

  /** Ends the question unanswered (compare-and-set: an answer that won stays) and the held request with it. */
  private async close(id: string, reason: 'timeout' | 'session_ended'): Promise<void> {
    let reply: string | null = null;
    try {
      reply = await this.deps.uow.transaction(async (stores) => {
        const question = await stores.parentQuestions.findById(id);
        if (question === undefined) return null;
        const now = this.deps.clock().toISOString();
        const settled =
          question.status === 'pending' ? await closeQuestion(stores, question, 'stale', reason, now) : question;
        // The parent's answer committed first (its tool call has not told us yet): it counts.
        return settled.status === 'answered' ? settled.answer : null;
      });
    } catch (err) {
      this.deps.logger.error({ err, questionId: id }, 'could not close a permission parent question');
    }
    this.finish(id, reply);
  }
}
