import type { AgentctlEndpoint, AgentctlStatus, SessionPlacement, WorkspaceMount } from '../agentctl/executor';

/** One session's agentctl as a per-session executor runs it (a container, a pod). */
export interface ManagedAgentctl {
  sessionId: string;
  endpoint: AgentctlEndpoint;
}

/**
 * What the executors with one agentctl per session (docker: a container; kubernetes: a pod) share: the
 * agentctls they run, by session; one start at a time per session; lookups by gRPC address; release.
 * A subclass says how to start, check, retire and clean up after one.
 */
export abstract class PerSessionExecutor<M extends ManagedAgentctl> {
  protected readonly managed = new Map<string, M>();
  protected readonly starting = new Map<string, Promise<M>>();

  /** A new agentctl for the session (after retiring a stale one and removing leftovers). */
  protected abstract start(sessionId: string, workspace: WorkspaceMount | undefined): Promise<M>;
  protected abstract isRunning(m: M): Promise<boolean>;
  /** Stops and removes it, without reporting a loss. */
  protected abstract retire(m: M): Promise<void>;
  /** Removes whatever a crashed start or an earlier backend left for the session. */
  protected abstract removeLeftovers(sessionId: string): Promise<void>;

  /** The session's running agentctl, or a new one (a resume after the old one died). */
  async acquire(sessionId: string, workspace?: WorkspaceMount): Promise<AgentctlEndpoint> {
    const existing = this.managed.get(sessionId);
    if (existing !== undefined && (await this.isRunning(existing))) return existing.endpoint;
    let start = this.starting.get(sessionId);
    if (start === undefined) {
      start = this.start(sessionId, workspace).finally(() => this.starting.delete(sessionId));
      this.starting.set(sessionId, start);
    }
    return (await start).endpoint;
  }

  endpointAt(grpcAddress: string): AgentctlEndpoint | undefined {
    for (const m of this.managed.values()) if (m.endpoint.grpcAddress === grpcAddress) return m.endpoint;
    return undefined;
  }

  endpoints(): AgentctlEndpoint[] {
    return [...this.managed.values()].map((m) => m.endpoint);
  }

  async release(session: SessionPlacement): Promise<void> {
    await this.starting.get(session.id)?.catch(() => undefined);
    const m = this.managed.get(session.id);
    if (m !== undefined) await this.retire(m);
    await this.removeLeftovers(session.id);
  }

  status(): AgentctlStatus {
    const first = this.managed.values().next().value;
    return {
      running: first !== undefined,
      pid: null,
      grpcAddress: first?.endpoint.grpcAddress ?? null,
      mcpBaseUrl: first?.endpoint.mcpBaseUrl ?? null,
    };
  }
}
