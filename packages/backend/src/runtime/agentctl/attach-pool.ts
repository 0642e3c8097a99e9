import type { AgentctlEndpoint } from './executor';

/** What the pool needs of one Attach supervisor (tool-calls' AttachSupervisor; a fake in tests). */
export interface AttachFollower {
  follow(endpoint: AgentctlEndpoint): void;
  stop(): Promise<void>;
}

/**
 * One Attach stream per agentctl in use: a supervisor per slot (the local agentctl, a remote, a
 * session's container). A new endpoint in a slot replaces the old stream (the supervisor does that);
 * a slot whose agentctl went is stopped.
 */
export class AttachPool {
  private readonly slots = new Map<string, { follower: AttachFollower; address: string }>();
  private stopped = false;
  private readonly stopping = new Set<Promise<void>>();

  constructor(private readonly create: () => AttachFollower) {}

  up(slot: string, endpoint: AgentctlEndpoint): void {
    if (this.stopped) return;
    let entry = this.slots.get(slot);
    if (entry === undefined) {
      entry = { follower: this.create(), address: endpoint.grpcAddress };
      this.slots.set(slot, entry);
    }
    entry.address = endpoint.grpcAddress;
    entry.follower.follow(endpoint);
  }

  down(slot: string, endpoint: AgentctlEndpoint): void {
    const entry = this.slots.get(slot);
    if (entry === undefined || entry.address !== endpoint.grpcAddress) return; // already replaced
    this.slots.delete(slot);
    this.track(entry.follower.stop());
  }

  /** The gRPC addresses with an Attach stream now. */
  addresses(): string[] {
    return [...this.slots.values()].map((entry) => entry.address);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const entry of this.slots.values()) this.track(entry.follower.stop());
    this.slots.clear();
    await Promise.allSettled([...this.stopping]);
  }

  private track(stopping: Promise<void>): void {
    this.stopping.add(stopping);
    void stopping.finally(() => this.stopping.delete(stopping));
  }
}
