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
 * slot: the old one is announced gone.
 */
export class LocalExecutorBackend implements ExecutorBackend {
  readonly kind = 'local';
  private announced: AgentctlEndpoint | undefined;

  constructor(
    private readonly local: LocalProcessExecutor,
    slot: string,
    events: AgentctlEvents,
  ) {
    local.onAgentctl((endpoint) => {
      const previous = this.announced;
      this.announced = endpoint;
      if (previous !== undefined && previous.grpcAddress !== endpoint.grpcAddress) events.down(slot, previous);
      events.up(slot, endpoint);
    });
    // Gone at once, even when its replacement comes up at the same address: the old Attach stream,
    // client channel and reachability go with it, and the new agentctl is attached afresh.
    local.onLost((endpoint) => {
      if (this.announced?.grpcAddress !== endpoint.grpcAddress) return;
      this.announced = undefined;
      events.down(slot, endpoint);
    });
  }

  noticeDetached(): void {
    this.local.noticeDetached();
  }

  acquire(): Promise<AgentctlEndpoint> {
    return this.local.ensureAgentctl();
  }

  placementNow(): AgentctlEndpoint | undefined {
    return this.local.liveEndpoint();
  }

  endpointAt(grpcAddress: string): AgentctlEndpoint | undefined {
    const current = this.local.liveEndpoint();
    return current?.grpcAddress === grpcAddress ? current : undefined;
  }

  endpoints(): AgentctlEndpoint[] {
    const current = this.local.liveEndpoint();
    return current === undefined ? [] : [current];
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
