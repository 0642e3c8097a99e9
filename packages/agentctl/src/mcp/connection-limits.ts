/** How many MCP connections agentctl holds at once, and how long an unused one lives. */
export interface McpLimits {
  /** Open connections of one session (KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION). */
  readonly perSession: number;
  /** Open connections of this agentctl, all sessions together (KANDEV_MCP_MAX_CONNECTIONS). */
  readonly total: number;
  /** A connection with no open stream and no request for this long is closed (KANDEV_MCP_IDLE_TIMEOUT_MS). */
  readonly idleTimeoutMs: number;
}

/** A held slot; releasing it twice is harmless (a connection can close along several paths). */
export interface ConnectionSlot {
  release(): void;
}

export type SlotRefusal = { readonly refused: string };

/**
 * Counts connections per session and in all, including ones still initialising (a slot is taken
 * before the first await, so concurrent initializes cannot overshoot the caps).
 */
export class ConnectionLimiter {
  private readonly perSession = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: Pick<McpLimits, 'perSession' | 'total'>) {}

  acquire(sessionId: string): ConnectionSlot | SlotRefusal {
    const held = this.perSession.get(sessionId) ?? 0;
    if (held >= this.limits.perSession) {
      return {
        refused:
          `this session already has ${held} open MCP connections (limit ${this.limits.perSession}): ` +
          'reuse one, close unused ones with DELETE, or retry once an idle one has timed out',
      };
    }
    if (this.total >= this.limits.total) {
      return {
        refused:
          `agentctl already holds ${this.total} open MCP connections (limit ${this.limits.total}): ` +
          'retry once connections have closed or timed out',
      };
    }
    this.perSession.set(sessionId, held + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = (this.perSession.get(sessionId) ?? 1) - 1;
        if (left === 0) this.perSession.delete(sessionId);
        else this.perSession.set(sessionId, left);
      },
    };
  }

  /** Slots held in all (open or initialising connections). */
  held(): number {
    return this.total;
  }
}
