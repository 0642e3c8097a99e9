import type { PermissionRequestInfo } from '@kandev/protocol';
import type { Logger } from '../../platform/logger/logger';
import { OPERATOR_GRANTOR } from '../../catalogue/permission-grants/grant';
import type { PermissionGrants } from '../../catalogue/permission-grants/grant-service';
import type { AgentSession } from '../sessions/agent-session';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { type ChosenOption, permissionAnswer, toPermissionQuestion } from './permission-question';
import type { PermissionParentQuestions } from './permission-parent';
import type { QuestionService } from '../questions/question-service';

// An agent's permission request under policy ask (docs/agents.md#permission-policy), as agentctl
// forwards it on Attach: the session's question capability decides who is asked. 'user': an operator
// question of kind 'permission' (REST, CLI, console), held until answered, expired
// (KANDEV_PERMISSION_TIMEOUT_MS), the session stops, the agent exits or the stream drops. 'none' (an
// autopilot root): nobody can answer, so it is rejected at once. 'parent' (an autopilot child): see
// permission-parent.ts. Every way without an answer is null: the agent gets reject.
// Under 'user' and 'parent' the task's permission grants come first (permission-grants/):
// a covered request is allowed once without a question, and an "always" answer is remembered by kandev
// and reaches the agent as allow_once, so the agent never stores a rule of its own.

export interface PermissionRequestDeps {
  uow: UnitOfWork;
  questions: QuestionService;
  /** How long an operator permission question waits (KANDEV_PERMISSION_TIMEOUT_MS). */
  timeoutMs: number;
  logger: Logger;
  /** An autopilot child's request (capability parent); absent: rejected like a root's. */
  parent?: Pick<PermissionParentQuestions, 'ask'>;
  grants: Pick<PermissionGrants, 'lookup' | 'settle'>;
}

/** The backend's answer to permission requests, and the per-session aborts for agents that exit. */
export class PermissionRequests {
  /** Held requests by session: aborted when the session's agent exits. */
  private readonly held = new Map<string, Set<AbortController>>();

  constructor(private readonly deps: PermissionRequestDeps) {}

  /** The chosen option id, or null to reject. Never throws: a failure rejects. */
  async decide(request: PermissionRequestInfo, channelSignal: AbortSignal): Promise<string | null> {
    const log = this.deps.logger.child({ sessionId: request.sessionId, requestId: request.requestId });
    const controller = new AbortController();
    const onChannelGone = () => controller.abort();
    channelSignal.addEventListener('abort', onChannelGone, { once: true });
    if (channelSignal.aborted) controller.abort();
    this.hold(request.sessionId, controller);
    try {
      const optionId = await this.route(request, controller.signal, log);
      log.info(
        { toolCallId: request.toolCallId, decided: optionId === null ? 'reject' : 'option' },
        'permission decided',
      );
      return optionId;
    } catch (err) {
      log.error({ err }, 'permission request failed; rejecting');
      return null;
    } finally {
      channelSignal.removeEventListener('abort', onChannelGone);
      this.release(request.sessionId, controller);
    }
  }

  /** The session's agent exited (or the session stopped): its held requests end now (reject). */
  agentGone(sessionId: string): void {
    for (const controller of this.held.get(sessionId) ?? []) controller.abort('session_stopped');
  }

  private async route(request: PermissionRequestInfo, signal: AbortSignal, log: Logger): Promise<string | null> {
    const session = await this.deps.uow.read.sessions.findById(request.sessionId);
    // Identity comes from the session row: a request naming another task is refused.
    if (session === undefined || session.taskId !== request.taskId) {
      log.warn({ taskId: request.taskId }, 'permission request for an unknown session or another task; rejecting');
      return null;
    }
    const capability = session.launchConfig.questionCapability;
    if (capability === 'none') {
      log.info('autopilot root: nobody to ask; permission rejected');
      return null;
    }
    const granted = await this.deps.grants.lookup(session, request, log);
    if (granted !== null) return granted;
    const chosen =
      capability === 'parent'
        ? await (this.deps.parent?.ask(session, request, signal) ?? null)
        : await this.askOperator(session, request, signal, log);
    return chosen === null ? null : this.deps.grants.settle(session, request, chosen.optionId, chosen.chosenBy, log);
  }

  private async askOperator(
    session: AgentSession,
    request: PermissionRequestInfo,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ChosenOption | null> {
    const asked = toPermissionQuestion(request);
    const question = await this.deps.questions.ask({
      taskId: session.taskId,
      sessionId: session.id,
      callId: `permission:${request.requestId}`,
      kind: 'permission',
      timeoutMs: this.deps.timeoutMs,
      args: asked.args,
      signal,
      onRecorded: (recorded) => log.info({ questionId: recorded.id }, 'permission question waits for the operator'),
    });
    const optionId = permissionAnswer(question, asked.optionByLabel);
    return optionId === null ? null : { optionId, chosenBy: OPERATOR_GRANTOR };
  }

  private hold(sessionId: string, controller: AbortController): void {
    const set = this.held.get(sessionId) ?? new Set<AbortController>();
    set.add(controller);
    this.held.set(sessionId, set);
  }

  private release(sessionId: string, controller: AbortController): void {
    const set = this.held.get(sessionId);
    set?.delete(controller);
    if (set?.size === 0) this.held.delete(sessionId);
  }
}
