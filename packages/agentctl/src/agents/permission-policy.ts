// Agents run unattended (ADR 2026-12-01-unattended-permission-requests): agentctl answers every
// session/request_permission itself, preferring the narrowest grant that lets the agent go on.

export interface PermissionOptionLike {
  readonly optionId: string;
  readonly kind: string;
}

export type PermissionDecision =
  { readonly outcome: 'selected'; readonly optionId: string } | { readonly outcome: 'cancelled' };

/** The first allow_once option, else the first allow_always, else cancelled (never a reject option). */
export function choosePermission(options: readonly PermissionOptionLike[]): PermissionDecision {
  const pick = options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always');
  return pick === undefined ? { outcome: 'cancelled' } : { outcome: 'selected', optionId: pick.optionId };
}
