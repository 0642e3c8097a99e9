import type { AgentSession } from '../sessions/agent-session';
import type { Stores } from '../../platform/store/unit-of-work';

/**
 * Whether a session's queue may drain now, asked inside the drainer's transaction. Resolves the reason
 * it is held (e.g. the session waits for its parent's answer), or null when it is open.
 */
export interface DrainGate {
  heldBecause(stores: Stores, session: AgentSession): Promise<string | null>;
}

/** No gate: every idle session drains. */
export const OPEN_GATE: DrainGate = { heldBecause: () => Promise.resolve(null) };

/** Asks a session's queue to drain (after an enqueue commits, a turn ends, the agent starts, ...). */
export interface PromptKicker {
  /** Never rejects: failures are logged. Resolves once this kick's drain step ran. */
  kick(sessionId: string): Promise<void>;
}
