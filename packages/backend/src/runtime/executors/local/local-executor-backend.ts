import type {
  AgentctlEndpoint,
  AgentctlEvents,
  AgentctlStatus,
  ExecutorBackend,
  SessionPlacement,
} from '../../agentctl/executor';
import type { LocalProcessExecutor } from './local-process-executor';

/**
 * The local-process executor as one registry backend: every session shares its one agentctl (started or
 * adopted at boot, restarted at once when it dies). A restarted agentctl is a new endpoint in the same
 * slot: the old one is announced gone. On a database several replicas share, `replica` (this replica's
 * id) goes on every endpoint: only this replica reaches its local agentctl, whatever its address.
 */
export class LocalExecutorBackend implements ExecutorBackend {
  readonly kind = 'local';
  private announced: AgentctlEndpoint | undefined;

  constructor(
    private readonly local: LocalProcessExecutor,
    slot: string,
    events: AgentctlEvents,
    private readonly replica?: string,
  ) {
    local.onAgentctl((started) => {
      const endpoint = this.owned(started);
      const previous = this.announced;
      this.announced = endpoint;
      if (previous !== undefined && previous.grpcAddress !== endpoint.grpcAddress) events.down(slot, previous);
      events.up(slot, endpoint);
    });
    // Gone at once, even when its replacement comes up at the same address: the old Attach stream,
    // client channel and reachability go with it, and the new agentctl is attached afresh.
    local.onLost((lost) => {
      const endpoint = this.owned(lost);
      if (this.announced?.grpcAddress !== endpoint.grpcAddress) return;
      this.announced = undefined;
      events.down(slot, endpoint);
    });
  }

  noticeDetached(): void {
    this.local.noticeDetached();
  }

  async acquire(): Promise<AgentctlEndpoint> {
    return this.owned(await this.local.ensureAgentctl());
  }

  placementNow(): AgentctlEndpoint | undefined {
    return this.live();
  }

  endpointAt(grpcAddress: string): AgentctlEndpoint | undefined {
    const current = this.live();
    return current?.grpcAddress === grpcAddress ? current : undefined;
  }

  endpoints(): AgentctlEndpoint[] {
    const current = this.live();
    return current === undefined ? [] : [current];
  }

  private live(): AgentctlEndpoint | undefined {
    const current = this.local.liveEndpoint();
    return current === undefined ? undefined : this.owned(current);
  }

  private owned(endpoint: AgentctlEndpoint): AgentctlEndpoint {
    return this.replica === undefined ? endpoint : { ...endpoint, replica: this.replica };
  }

  /** The shared agentctl stays up; StopSession already ended the session's runtime. */
  release(_session: SessionPlacement): Promise<void> {
    return Promise.resolve();
  }

  /** At boot, as before executors were pluggable: adopt the agentctl an earlier backend left, or start one. */
  async recover(): Promise<void> {
    await this.local.ensureAgentctl();
  }

  status(): AgentctlStatus {
    return this.local.status();
  }

  stop(): Promise<void> {
    return this.local.stop();
  }
}
