import type { PermissionPolicy } from '@kandev/protocol';
import type { Logger } from '../logger';
import type { AgentPermissionRequest } from './acp-connection';
import { isOwnToolCall } from './own-tool-call';
import { choosePermission, type PermissionDecision } from './permission-policy';
import { answerPermission, type PermissionAsker } from './permission-responder';
import type { TurnOutput, TurnOutputEvent } from './turn-output';

// One agent's session/request_permission, from arrival to answer: the call it is about joins the turn's
// record (some agents announce a gated call only through the request), the session's own MCP tools are
// allowed at once, everything else goes by the policy, and a call that is not permitted is recorded as
// failed (some agents send nothing more about it).

export interface PermissionFlowDeps {
  readonly sessionId: string;
  readonly taskId: string;
  readonly policy: PermissionPolicy;
  readonly asker: PermissionAsker;
  readonly log: Logger;
  readonly newRequestId: () => string;
  /** The session's MCP server name in the agent, or null without one. */
  readonly mcpServerName: string | null;
  readonly toolNames: () => readonly string[];
  readonly publish: (events: readonly TurnOutputEvent[]) => void;
}

export interface PermissionTurnContext {
  /** The turn the request belongs to (undefined: none is running, e.g. a late request). */
  readonly turn: TurnOutput | undefined;
  /** Aborts when nobody may answer any more: the agent stops or exits. A waiting ask rejects. */
  readonly lifetime: AbortSignal;
  /** Aborts when the turn is cancelled or the agent withdrew the request: the answer is `cancelled`. */
  readonly cancelled: AbortSignal;
}

export async function handlePermission(
  deps: PermissionFlowDeps,
  context: PermissionTurnContext,
  request: AgentPermissionRequest,
): Promise<PermissionDecision> {
  const { turn } = context;
  // The status is the agent's to report; a request's "pending" must not set back a running call.
  if (turn !== undefined) deps.publish(turn.apply({ ...request.toolCall, status: undefined }));
  const known = turn?.toolCall(request.toolCallId);
  if (isOwnToolCall(request.toolCall, known, deps.mcpServerName, deps.toolNames())) {
    const decision = choosePermission(request.options);
    deps.log.info({ toolCallId: request.toolCallId, decision }, 'permission for a session tool allowed');
    return decision;
  }
  const titled = { ...request, title: request.title ?? (known?.title || null) };
  const signal = AbortSignal.any([context.lifetime, context.cancelled]);
  const { sessionId, taskId, policy, asker, log, newRequestId } = deps;
  const answered = await answerPermission({ sessionId, taskId, policy, asker, signal, log, newRequestId }, titled);
  // ACP: a client answers a request of a cancelled turn with the cancelled outcome.
  const decision: PermissionDecision = context.cancelled.aborted ? { outcome: 'cancelled' } : answered;
  if (turn !== undefined && !isAllowed(request, decision)) {
    const why = context.cancelled.aborted ? 'the turn was cancelled' : `refused (permission policy ${deps.policy})`;
    deps.publish(
      turn.apply({
        kind: 'tool_call',
        toolCallId: request.toolCallId,
        status: 'failed',
        outputText: `Not run: ${why}.`,
      }),
    );
  }
  return decision;
}

function isAllowed(request: AgentPermissionRequest, decision: PermissionDecision): boolean {
  if (decision.outcome !== 'selected') return false;
  const kind = request.options.find((o) => o.optionId === decision.optionId)?.kind;
  return kind === 'allow_once' || kind === 'allow_always';
}
