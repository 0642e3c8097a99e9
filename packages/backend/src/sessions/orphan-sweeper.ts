import type { AgentctlConnector } from '../executors/agentctl-client';
import type { Executor } from '../executors/executor';
import type { Logger } from '../logger';
import type { UnitOfWork } from '../store/unit-of-work';
import { isEnded } from './session-lifecycle';

export interface OrphanSweeperDeps {
  uow: UnitOfWork;
  executor: Executor;
  agentctl: AgentctlConnector;
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

  /** One pass over what the current agentctl holds; resolves the ids it stopped. */
  async sweep(): Promise<string[]> {
    const endpoint = this.deps.executor.current();
    if (endpoint === undefined) return [];
    const client = this.deps.agentctl.clientFor(endpoint);
    const stopped: string[] = [];
    for (const runtime of await client.listSessions()) {
      const sessionId = runtime.config.sessionId;
      const row = await this.deps.uow.read.sessions.findById(sessionId);
      if (row !== undefined && !isEnded(row.state)) continue;
      if (await client.stopSession(sessionId)) stopped.push(sessionId);
    }
    if (stopped.length > 0) this.deps.logger.warn({ sessionIds: stopped }, 'stopped orphaned runtime sessions');
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
