import type { AgentctlEndpoint, AgentctlEvents } from './executor';

/**
 * Fans executor events out to whoever subscribed (the Attach pool, the client cache, the session loss
 * handler). Executors are built before those exist, so they get the hub and subscribers come later.
 */
export class AgentctlEventHub implements AgentctlEvents {
  private readonly listeners: Partial<AgentctlEvents>[] = [];

  subscribe(listener: Partial<AgentctlEvents>): void {
    this.listeners.push(listener);
  }

  up(slot: string, endpoint: AgentctlEndpoint): void {
    for (const listener of this.listeners) listener.up?.(slot, endpoint);
  }

  down(slot: string, endpoint: AgentctlEndpoint): void {
    for (const listener of this.listeners) listener.down?.(slot, endpoint);
  }

  lost(session: { id: string; agentctlAddress: string }, reason: string): void {
    for (const listener of this.listeners) listener.lost?.(session, reason);
  }
}
