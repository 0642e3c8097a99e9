import { AppError } from '@kandev/protocol';
import type { Replicas } from '../../platform/cluster/replicas';
import type { AgentctlApi, AgentctlConnector } from './agentctl-client';
import type { AgentctlDirectory } from './agentctl-directory';
import type { AgentctlEndpoint, ExecutorKind, SessionPlacement, WorkspaceMount } from './executor';

/** One agentctl and a client for it. */
export interface ReachedAgentctl {
  endpoint: AgentctlEndpoint;
  client: AgentctlApi;
}

/**
 * The one way from the backend to an agentctl. A caller holding a session row asks for THAT session's
 * agentctl with it (its executor and recorded address), so the row is never read again to route; a
 * launch or resume asks the session's executor, which provides the agentctl (starting it, or the
 * session's container); the orphan sweep goes over every agentctl up.
 *
 * A session on another backend's own local agentctl (its `home`: the data dir's backend id) is out of
 * this replica's reach: `servedElsewhere` names that backend, and `forward` asks it (a `session`
 * signal) to bring the session up to date itself: push its providers, drain its queue, stop its
 * runtime once it ended.
 */
export class Agentctls {
  constructor(
    private readonly directory: AgentctlDirectory,
    private readonly clients: AgentctlConnector,
    private readonly local?: { home: string | undefined; publish: Replicas['publish'] },
  ) {}

  /** The other backend whose own local agentctl holds the session, if it is one (only it reaches it). */
  servedElsewhere(session: SessionPlacement): string | undefined {
    const home = session.agentctlReplica ?? null;
    return home !== null && home !== this.local?.home ? home : undefined;
  }

  /** Asks the backend serving the session (servedElsewhere) to bring it up to date. */
  forward(session: SessionPlacement): void {
    this.local?.publish('session', session.id);
  }

  /** The executor a launch uses when it names none. */
  get defaultExecutor(): string {
    return this.directory.defaultExecutor;
  }

  /** The executor (or profile) names a launch may ask for. */
  names(): string[] {
    return this.directory.names();
  }

  /** The agentctl for a session about to start (launch or resume) on its executor, in its task workspace. */
  async forLaunch(
    session: Pick<SessionPlacement, 'id' | 'executor'>,
    workspace?: WorkspaceMount,
  ): Promise<ReachedAgentctl> {
    const endpoint = await this.directory.acquire(session.executor, session.id, workspace);
    return this.reach(endpoint);
  }

  /** Where a new session on `executor` would start, when that is known without asking (a local agentctl up now). */
  placementNow(executor: string): AgentctlEndpoint | undefined {
    return this.directory.placementNow(executor);
  }

  /** The kind of a configured executor (a docker session's agent works at the container's mount path). */
  kindOf(name: string): ExecutorKind {
    return this.directory.kindOf(name);
  }

  /** Where a remote executor's agentctl sees the workspaces dir (shared storage), when configured. */
  sharedWorkspacesDirOf(name: string): string | undefined {
    return this.directory.sharedWorkspacesDirOf(name);
  }

  /** The agentctl the session was started on, while it is up; undefined when it is gone or never was. */
  find(session: SessionPlacement): ReachedAgentctl | undefined {
    const endpoint = this.directory.endpointFor(session);
    return endpoint === undefined ? undefined : this.reach(endpoint);
  }

  /**
   * The client for a per-session call. Throws `not_found` when the agentctl the session ran on is gone
   * (that agentctl no longer holds it: callers treat it as lost), and `unavailable` while no agentctl
   * is up at all (the local one died and nothing restarted it yet: a later try may reach it).
   */
  forSession(session: SessionPlacement): AgentctlApi {
    const found = this.find(session);
    if (found !== undefined) return found.client;
    const elsewhere = this.servedElsewhere(session);
    if (elsewhere !== undefined) throw servedByAnotherReplica(session.id, elsewhere);
    if (this.directory.endpoints().length === 0) throw new AppError('unavailable', 'agentctl is not running');
    if (session.agentctlAddress === null) {
      throw new AppError('not_found', `session ${session.id} has not started on an agentctl`);
    }
    throw new AppError('not_found', `the agentctl session ${session.id} ran on (${session.agentctlAddress}) is gone`);
  }

  /** The executor whose agentctl is up at this address (name, kind), if any. */
  ownerOf(grpcAddress: string): { name: string; kind: string } | undefined {
    return this.directory.ownerOf(grpcAddress);
  }

  /** A client for one agentctl up now (the repair once it attached). */
  at(endpoint: AgentctlEndpoint): AgentctlApi {
    return this.clients.clientFor(endpoint);
  }

  /** Every agentctl up now, each with its own client. */
  up(): ReachedAgentctl[] {
    return this.directory.endpoints().map((endpoint) => this.reach(endpoint));
  }

  /** The session ended: its executor may free what it held for it (docker: its container). */
  release(session: SessionPlacement): Promise<void> {
    return this.directory.release(session);
  }

  private reach(endpoint: AgentctlEndpoint): ReachedAgentctl {
    return { endpoint, client: this.clients.clientFor(endpoint) };
  }
}

/** `unavailable`: this replica cannot reach the session's agentctl, the backend that runs it can. */
export function servedByAnotherReplica(sessionId: string, home: string): AppError {
  return new AppError(
    'unavailable',
    `session ${sessionId} runs on the local agentctl of backend ${home}; only that backend reaches it`,
  );
}
