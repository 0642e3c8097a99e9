import { AppError } from '@kandev/protocol';
import { type AgentctlDirectory, unknownExecutor } from '../agentctl/agentctl-directory';
import {
  type AgentctlEndpoint,
  agentctlKey,
  type AgentctlStatus,
  type ExecutorBackend,
  type ExecutorKind,
  type SessionPlacement,
  type WorkspaceMount,
} from '../agentctl/executor';

/**
 * Every executor this backend can launch sessions with, by name ('local', 'docker', 'remote', or a
 * named profile), and the default one: where a launch gets its agentctl, and where each session's
 * agentctl is (by the executor and address its row records).
 */
export class ExecutorRegistry implements AgentctlDirectory {
  constructor(
    private readonly backends: ReadonlyMap<string, ExecutorBackend>,
    readonly defaultExecutor: string,
  ) {
    if (!backends.has(defaultExecutor)) throw unknownExecutor(defaultExecutor, [...backends.keys()]);
  }

  names(): string[] {
    return [...this.backends.keys()];
  }

  backend(name: string): ExecutorBackend {
    const backend = this.backends.get(name);
    if (backend === undefined) throw unknownExecutor(name, this.names());
    return backend;
  }

  acquire(name: string, sessionId: string, workspace?: WorkspaceMount): Promise<AgentctlEndpoint> {
    return this.backend(name).acquire(sessionId, workspace);
  }

  placementNow(name: string): AgentctlEndpoint | undefined {
    return this.backend(name).placementNow?.();
  }

  kindOf(name: string): ExecutorKind {
    return this.backend(name).kind;
  }

  sharedWorkspacesDirOf(name: string): string | undefined {
    return this.backend(name).sharedWorkspacesDir;
  }

  endpointFor(session: SessionPlacement): AgentctlEndpoint | undefined {
    if (session.agentctlAddress === null) return undefined;
    const endpoint = this.backends.get(session.executor)?.endpointAt(session.agentctlAddress);
    // Another replica's local agentctl may have the same address as this replica's own.
    return endpoint?.replica === (session.agentctlReplica ?? undefined) ? endpoint : undefined;
  }

  endpoints(): AgentctlEndpoint[] {
    const seen = new Map<string, AgentctlEndpoint>();
    for (const backend of this.backends.values()) {
      for (const endpoint of backend.endpoints()) seen.set(agentctlKey(endpoint), endpoint);
    }
    return [...seen.values()];
  }

  async release(session: SessionPlacement): Promise<void> {
    await this.backends.get(session.executor)?.release(session);
  }

  /** Each executor finds what an earlier backend left; one failing does not stop the others. */
  async recover(isLiveSession: (sessionId: string) => Promise<boolean>): Promise<Map<string, Error>> {
    const failures = new Map<string, Error>();
    for (const [name, backend] of this.backends) {
      try {
        await backend.recover(isLiveSession);
      } catch (error) {
        failures.set(
          name,
          error instanceof Error ? error : new AppError('internal', `executor ${name} could not recover`),
        );
      }
    }
    return failures;
  }

  /** An Attach stream ended: the executor that runs that agentctl checks whether it is gone. */
  noticeDetached(endpoint: AgentctlEndpoint): void {
    for (const backend of this.backends.values()) backend.noticeDetached?.(endpoint);
  }

  /** The executor (name and kind) whose agentctl is up at this address now, if any. */
  ownerOf(grpcAddress: string): { name: string; kind: ExecutorBackend['kind'] } | undefined {
    for (const [name, backend] of this.backends) {
      if (backend.endpointAt(grpcAddress) !== undefined) return { name, kind: backend.kind };
    }
    return undefined;
  }

  /** The default executor's agentctl (GET /api/agentctl, the ready line). */
  status(): AgentctlStatus {
    return this.backend(this.defaultExecutor).status();
  }

  statusByExecutor(): Record<string, AgentctlStatus & { kind: string }> {
    return Object.fromEntries(
      [...this.backends].map(([name, backend]) => [name, { kind: backend.kind, ...backend.status() }]),
    );
  }

  /** Graceful stop of every executor, in parallel (each cleans up what it started). */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.backends.values()].map((backend) => backend.stop()));
  }
}
