import type { PermissionPolicy, PermissionRequestInfo } from '@kandev/protocol';
import type { Logger } from '../logger';
import type { AgentPermissionRequest } from './acp-connection';
import { decisionFromAnswer, localDecision, type PermissionDecision } from './permission-policy';

/**
 * Who answers a permission request under policy ask (the Attach hub). Resolves with the chosen option
 * id, or null for every way it ends without one: no backend attached, the stream dropped, the signal
 * aborted (the session stops), agentctl's safety timeout, or the backend rejected.
 */
export interface PermissionAsker {
  ask(request: PermissionRequestInfo, signal: AbortSignal): Promise<string | null>;
}

/** Nobody to ask (no asker wired): every ask rejects. */
export const NO_PERMISSION_ASKER: PermissionAsker = { ask: () => Promise.resolve(null) };

export interface PermissionContext {
  readonly sessionId: string;
  readonly taskId: string;
  readonly policy: PermissionPolicy;
  readonly asker: PermissionAsker;
  /** Aborted when the agent stops or exits: a waiting ask rejects at once. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  readonly newRequestId: () => string;
}

/** Applies the session's policy to one request and logs the decision (ids and kinds only, no arguments). */
export async function answerPermission(
  context: PermissionContext,
  request: AgentPermissionRequest,
): Promise<PermissionDecision> {
  const local = localDecision(context.policy, request.options);
  if (local !== null) {
    logDecision(context, request, local, context.policy);
    return local;
  }
  const requestId = context.newRequestId();
  const optionId = await context.asker.ask(
    {
      requestId,
      sessionId: context.sessionId,
      taskId: context.taskId,
      toolCallId: request.toolCallId,
      title: request.title ?? request.toolCallId,
      toolKind: request.toolKind,
      options: request.options,
    },
    context.signal,
  );
  const decision = decisionFromAnswer(request.options, optionId);
  logDecision(context, request, decision, optionId === null ? 'ask: no answer or rejected' : 'ask: answered');
  return decision;
}

function logDecision(
  context: PermissionContext,
  request: AgentPermissionRequest,
  decision: PermissionDecision,
  how: string,
): void {
  const chosen =
    decision.outcome === 'selected' ? request.options.find((o) => o.optionId === decision.optionId)?.kind : undefined;
  context.log.info(
    { toolCallId: request.toolCallId, toolKind: request.toolKind, policy: context.policy, how, decision, chosen },
    'permission request answered',
  );
}
