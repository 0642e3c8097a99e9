import type { PermissionPolicy } from '@kandev/protocol';
import type { SessionModes } from './acp-connection';

// Pure: which of the agent's own session modes makes its permission policy hold. ACP modes carry an id
// and a name but no meaning, so the meaning of the ids agentctl knows is written down here; what the
// agent offers decides, never which agent it is.

/**
 * Modes in which the agent asks (session/request_permission) before it changes anything: Claude Code's
 * `default` ("Manual": its own default is `auto`, where a classifier model decides instead), Gemini
 * CLI's `default`, Codex's `read-only` (its sandbox blocks writes; running a command outside it asks;
 * its own default `agent` sends those requests to a reviewer model instead).
 */
export const ASKING_MODE_IDS: readonly string[] = ['default', 'read-only'];

/**
 * Modes in which the agent acts without asking: Claude Code's `bypassPermissions` (offered only when
 * it may: not to root outside a sandbox), Codex's `agent-full-access` (also the only one in which it can
 * commit: its sandbox keeps .git read-only), Gemini CLI's `yolo`.
 */
export const ALLOWING_MODE_IDS: readonly string[] = ['bypassPermissions', 'agent-full-access', 'yolo'];

export type ModeChoice =
  /** The agent offers no modes: nothing to set. */
  | { readonly kind: 'none' }
  | { readonly kind: 'set'; readonly modeId: string }
  /** The agent offers modes, none known to fit: its own mode decides what it asks. */
  | { readonly kind: 'unavailable'; readonly offered: readonly string[] };

/**
 * ask and deny_all need an asking mode (agentctl then asks someone, or rejects); allow_all prefers a
 * mode that asks nothing, else an asking one whose requests agentctl allows.
 */
export function chooseMode(policy: PermissionPolicy, modes: SessionModes | null): ModeChoice {
  const offered = modes?.available.map((mode) => mode.id) ?? [];
  if (offered.length === 0) return { kind: 'none' };
  const wanted = policy === 'allow_all' ? [...ALLOWING_MODE_IDS, ...ASKING_MODE_IDS] : ASKING_MODE_IDS;
  const modeId = wanted.find((id) => offered.includes(id));
  return modeId === undefined ? { kind: 'unavailable', offered } : { kind: 'set', modeId };
}
