// How agentctl answers an agent's session/request_permission (docs/agents.md#permission-policy): the
// profile's policy decides locally (allow_all, deny_all) or the backend is asked (ask). Every path that
// ends without an answer rejects: a reject option when one is offered, else the cancelled outcome.
import type { PermissionPolicy } from '@kandev/protocol';

export interface PermissionOptionLike {
  readonly optionId: string;
  readonly kind: string;
}

export type PermissionDecision =
  { readonly outcome: 'selected'; readonly optionId: string } | { readonly outcome: 'cancelled' };

export const ALLOW_KINDS: readonly string[] = ['allow_once', 'allow_always'];
export const REJECT_KINDS: readonly string[] = ['reject_once', 'reject_always'];

/** The first option of the first kind in `kinds` that is offered, else cancelled. */
function firstOfKinds(options: readonly PermissionOptionLike[], kinds: readonly string[]): PermissionDecision {
  for (const kind of kinds) {
    const pick = options.find((o) => o.kind === kind);
    if (pick !== undefined) return { outcome: 'selected', optionId: pick.optionId };
  }
  return { outcome: 'cancelled' };
}

/** allow_all: the first allow_once option, else the first allow_always, else cancelled (never a reject). */
export function choosePermission(options: readonly PermissionOptionLike[]): PermissionDecision {
  return firstOfKinds(options, ALLOW_KINDS);
}

/** deny_all, and every unanswered ask: reject_once, else reject_always, else cancelled (never an allow). */
export function rejectPermission(options: readonly PermissionOptionLike[]): PermissionDecision {
  return firstOfKinds(options, REJECT_KINDS);
}

/** The local answer of a policy that needs nobody; null for ask. */
export function localDecision(
  policy: PermissionPolicy,
  options: readonly PermissionOptionLike[],
): PermissionDecision | null {
  if (policy === 'allow_all') return choosePermission(options);
  if (policy === 'deny_all') return rejectPermission(options);
  return null;
}

/**
 * What the backend's answer means for the agent: the chosen option when it is one the agent offered;
 * no answer (null) or an option id the agent never offered rejects.
 */
export function decisionFromAnswer(
  options: readonly PermissionOptionLike[],
  optionId: string | null,
): PermissionDecision {
  if (optionId !== null && options.some((o) => o.optionId === optionId)) return { outcome: 'selected', optionId };
  return rejectPermission(options);
}
