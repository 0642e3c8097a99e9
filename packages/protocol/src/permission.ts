import { z } from 'zod';
import type { PermissionDecision as WirePermissionDecision } from './generated/kandev/agentctl/v1/PermissionDecision';
import type { PermissionPolicy__Output as WirePermissionPolicy } from './generated/kandev/agentctl/v1/PermissionPolicy';
import type {
  PermissionRequest as WirePermissionRequest,
  PermissionRequest__Output as WirePermissionRequestOutput,
} from './generated/kandev/agentctl/v1/PermissionRequest';

/**
 * How agentctl answers an agent's ACP session/request_permission (docs/agents.md#permission-policy):
 * allow_all and deny_all locally, ask by forwarding it to the backend (an operator or parent question).
 */
export const PERMISSION_POLICIES = ['ask', 'allow_all', 'deny_all'] as const;
export type PermissionPolicy = (typeof PERMISSION_POLICIES)[number];
export const PermissionPolicySchema = z.enum(PERMISSION_POLICIES);
export const DEFAULT_PERMISSION_POLICY: PermissionPolicy = 'ask';

const FROM_WIRE = {
  // An older backend sends nothing: ask, which rejects when nobody answers (fail closed).
  PERMISSION_POLICY_UNSPECIFIED: 'ask',
  PERMISSION_POLICY_ASK: 'ask',
  PERMISSION_POLICY_ALLOW_ALL: 'allow_all',
  PERMISSION_POLICY_DENY_ALL: 'deny_all',
} as const satisfies Record<WirePermissionPolicy, PermissionPolicy>;

const TO_WIRE = {
  ask: 'PERMISSION_POLICY_ASK',
  allow_all: 'PERMISSION_POLICY_ALLOW_ALL',
  deny_all: 'PERMISSION_POLICY_DENY_ALL',
} as const satisfies Record<PermissionPolicy, WirePermissionPolicy>;

export function permissionPolicyToWire(policy: PermissionPolicy): WirePermissionPolicy {
  return TO_WIRE[policy];
}

/** UNSPECIFIED or an unknown value reads as ask: never more permissive than asking. */
export function permissionPolicyFromWire(value: unknown): PermissionPolicy {
  return typeof value === 'string' && value in FROM_WIRE ? FROM_WIRE[value as WirePermissionPolicy] : 'ask';
}

/** One option an agent offers (ACP PermissionOption); kind is allow_once, allow_always, reject_once, reject_always. */
export interface PermissionOptionInfo {
  readonly optionId: string;
  readonly name: string;
  readonly kind: string;
}

/** An agent's permission request as agentctl forwards it under policy ask. */
export interface PermissionRequestInfo {
  readonly requestId: string;
  readonly sessionId: string;
  readonly taskId: string;
  readonly toolCallId: string;
  readonly title: string;
  /** The tool call's ACP kind (read, edit, execute, ...), null when the agent gave none. */
  readonly toolKind: string | null;
  readonly options: readonly PermissionOptionInfo[];
}

export function permissionRequestToWire(request: PermissionRequestInfo): WirePermissionRequest {
  return {
    request_id: request.requestId,
    session_id: request.sessionId,
    task_id: request.taskId,
    tool_call_id: request.toolCallId,
    title: request.title,
    kind: request.toolKind ?? '',
    options: request.options.map((o) => ({ option_id: o.optionId, name: o.name, kind: o.kind })),
  };
}

export function permissionRequestFromWire(wire: WirePermissionRequestOutput): PermissionRequestInfo {
  return {
    requestId: wire.request_id,
    sessionId: wire.session_id,
    taskId: wire.task_id,
    toolCallId: wire.tool_call_id,
    title: wire.title,
    toolKind: wire.kind.length > 0 ? wire.kind : null,
    options: wire.options.map((o) => ({ optionId: o.option_id, name: o.name, kind: o.kind })),
  };
}

/** The outcome text for a reject on the wire: an empty option id means the same. */
export const PERMISSION_CANCELLED = 'cancelled';

/** null = reject. */
export function permissionDecisionToWire(requestId: string, optionId: string | null): WirePermissionDecision {
  return { request_id: requestId, option_id: optionId ?? '' };
}

/** The chosen option id, or null when the backend rejected (empty or "cancelled"). */
export function permissionDecisionOptionId(optionId: string): string | null {
  return optionId.length === 0 || optionId === PERMISSION_CANCELLED ? null : optionId;
}
