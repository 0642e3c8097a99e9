import type { AgentctlEndpoint } from '../../runtime/agentctl/executor';

/** What the supervisor needs of an Attach client (AttachClient; a fake in tests). */
export interface AttachConnection {
  readonly endpoint: AgentctlEndpoint;
  start(): void;
  stop(): Promise<void>;
}

function sameEndpoint(a: AgentctlEndpoint, b: AgentctlEndpoint): boolean {
  return a.grpcAddress === b.grpcAddress && a.controlToken === b.controlToken;
}

/**
 * Keeps the backend attached to the executor's CURRENT agentctl: told of every endpoint the executor
 * starts or adopts, it keeps the client when nothing changed and otherwise replaces it (the old
 * agentctl is gone, its sessions with it). After stop() it attaches to nothing.
 */
export class AttachSupervisor {
  private current: AttachConnection | undefined;
  private stopped = false;
  private readonly retiring = new Set<Promise<void>>();

  constructor(private readonly connect: (endpoint: AgentctlEndpoint) => AttachConnection) {}

  follow(endpoint: AgentctlEndpoint): void {
    if (this.stopped || (this.current !== undefined && sameEndpoint(this.current.endpoint, endpoint))) return;
    this.retire();
    this.current = this.connect(endpoint);
    this.current.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.retire();
    await Promise.allSettled([...this.retiring]);
  }

  private retire(): void {
    const old = this.current;
    this.current = undefined;
    if (old === undefined) return;
    const stopping = old.stop();
    this.retiring.add(stopping);
    void stopping.finally(() => this.retiring.delete(stopping));
  }
}
