import type { AgentctlConnector } from '../executors/agentctl-client';
import { type AgentctlDirectory, directoryOf } from '../executors/agentctl-directory';
import type { AgentctlEndpoint, Executor } from '../executors/executor';
import type { Logger } from '../logger';
import type { UnitOfWork } from '../store/unit-of-work';
import { isEnded } from './session-lifecycle';

export interface OrphanSweeperDeps {
  uow: UnitOfWork;
  executor: Executor;
  /** Several executors (the registry): every agentctl up is swept. The one `executor` when absent. */
  agentctls?: AgentctlDirectory;
  agentctl: AgentctlConnector;
  /** Unrouted per-endpoint clients (when `agentctl` routes by session). */
  clients?: AgentctlConnector;
  logger: Logger;
  /** Delays of the follow-up sweeps after an ambiguous launch failure. */
  followUpDelaysMs: readonly number[];
}

/**
 * Stops runtime sessions agentctl holds although the backend recorded them as ended (failed, cancelled,
 * completed: agentctl must not hold those) or not at all. They appear when a CreateSession times out in the backend but still runs in agentctl (a gRPC
 * deadline is ambiguous): nobody holds their token, and a later agent runtime would keep a process.
 */
export class OrphanSweeper {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: OrphanSweeperDeps) {}

  /** One pass over what every agentctl up holds; resolves the ids it stopped. */
  async sweep(): Promise<string[]> {
    const stopped: string[] = [];
    for (const endpoint of directoryOf(this.deps).endpoints()) {
      stopped.push(...(await this.sweepOne(endpoint)));
    }
    if (stopped.length > 0) this.deps.logger.warn({ sessionIds: stopped }, 'stopped orphaned runtime sessions');
    return stopped;
  }

  /**
   * Held by this agentctl but ended, unknown, or recorded on another agentctl (resumed elsewhere).
   * StopSession goes straight to this endpoint's client: a routed one would follow the row elsewhere.
   */
  private async sweepOne(endpoint: AgentctlEndpoint): Promise<string[]> {
    const client = this.deps.clients?.clientFor(endpoint) ?? this.deps.agentctl.clientFor(endpoint);
    const stopped: string[] = [];
    for (const runtime of await client.listSessions()) {
      const sessionId = runtime.config.sessionId;
      const row = await this.deps.uow.read.sessions.findById(sessionId);
      const elsewhere = row?.agentctlAddress != null && row.agentctlAddress !== endpoint.grpcAddress;
      if (row !== undefined && !isEnded(row.state) && !elsewhere) continue;
      if (await client.stopSession(sessionId)) stopped.push(sessionId);
    }
    return stopped;
  }

  /** After a launch whose outcome in agentctl is unknown: sweep a few times as the late call may land. */
  sweepSoon(): void {
    for (const delay of this.deps.followUpDelaysMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.sweep().catch((err: unknown) => this.deps.logger.warn({ err }, 'orphan sweep failed'));
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
