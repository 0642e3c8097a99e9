// Which turn a session/cancel is for. The ACP SDK reads messages in wire order but dispatches each one
// through a chain of async handlers, so handlers may run out of order: a cancel read right after a prompt
// can reach its handler before the prompt's handler has started the turn (dropping it would leave the
// turn running), and a cancel read after a turn's answer was sent can reach it after the next prompt
// started (applying it would cancel a turn nobody meant). So each cancel is tied, as it is read, to the
// last prompt read before it, and applied to that prompt's turn only: now when it runs, at its start
// when it has not started yet, never when it already ended. Pure: no I/O.

export type CancelVerdict =
  /** Cancel the running turn: it is the one the cancel was sent for. */
  | 'cancel_running'
  /** The prompt it was sent for has not started: its turn ends cancelled before its first step. */
  | 'kept_for_prompt'
  /** The turn it was sent for already ended (or no prompt came before it): nothing to cancel. */
  | 'stale';

export class EarlyCancels {
  /** session/prompt requests read off the wire, per session. */
  private readonly arrived = new Map<string, number>();
  /** Prompt handlers run, per session; the running turn (if any) is prompt number `handled`. */
  private readonly handled = new Map<string, number>();
  /** For each cancel read but not yet handled: the number of the last prompt read before it. */
  private readonly cancelTargets = new Map<string, number[]>();
  /** The number of a prompt whose turn must end cancelled when its handler runs. */
  private readonly pending = new Map<string, number>();

  /** A session/prompt request was read off the wire (before any handler ran). */
  promptArrived(sessionId: string): void {
    this.arrived.set(sessionId, (this.arrived.get(sessionId) ?? 0) + 1);
  }

  /** A session/cancel notification was read off the wire (before any handler ran). */
  cancelArrived(sessionId: string): void {
    const targets = this.cancelTargets.get(sessionId) ?? [];
    targets.push(this.arrived.get(sessionId) ?? 0);
    this.cancelTargets.set(sessionId, targets);
  }

  /**
   * The cancel handler runs (handlers of one kind run in the order their messages were read). Without
   * a recorded arrival (nothing observed the wire) it falls back to the running turn, if any.
   */
  cancelHandled(sessionId: string, turnRunning: boolean): CancelVerdict {
    const target = this.cancelTargets.get(sessionId)?.shift();
    const handled = this.handled.get(sessionId) ?? 0;
    if (target === undefined) return turnRunning ? 'cancel_running' : 'stale';
    if (target === handled && turnRunning) return 'cancel_running';
    if (target > handled) {
      this.pending.set(sessionId, target);
      return 'kept_for_prompt';
    }
    return 'stale';
  }

  /** The prompt handler runs: true when a cancel for this very prompt came first (consumed here). */
  promptHandled(sessionId: string): boolean {
    const number = (this.handled.get(sessionId) ?? 0) + 1;
    this.handled.set(sessionId, number);
    const pending = this.pending.get(sessionId);
    if (pending !== undefined && pending <= number) this.pending.delete(sessionId);
    return pending === number;
  }
}

/** The ACP method and session id of a request or notification read off the wire. */
export function incomingSessionMessage(message: unknown): { method: string; sessionId: string } | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; params?: unknown };
  if (typeof m.method !== 'string' || typeof m.params !== 'object' || m.params === null) return undefined;
  const sessionId = (m.params as { sessionId?: unknown }).sessionId;
  return typeof sessionId === 'string' ? { method: m.method, sessionId } : undefined;
}
