import { AppError } from '@kandev/protocol';
import type { Logger } from '../../../platform/logger/logger';
import type { AgentctlEndpoint, AgentctlEvents, AgentctlStatus, ExecutorBackend } from '../../agentctl/executor';
import { TlsVerificationFailed, waitForServing } from '../wait-for-serving';

export interface RemoteExecutorOptions {
  /** Where the backend dials the agentctl (gRPC) and where agents reach its MCP listener. */
  endpoint: AgentctlEndpoint;
  slot: string;
  /** How long a launch waits for the agentctl to answer health SERVING. */
  healthTimeoutMs: number;
  /** Where that agentctl sees the backend's workspaces dir; undefined: no shared storage. */
  workspacesDir?: string;
  events: AgentctlEvents;
  logger: Logger;
}

/**
 * An agentctl someone else runs (a compose service, another host): the backend never starts or stops
 * it, it only checks health before a launch and keeps an Attach stream to it (announced at boot, so
 * calls and events flow even before the first launch).
 */
export class RemoteExecutor implements ExecutorBackend {
  readonly kind = 'remote';
  private announced = false;

  readonly sharedWorkspacesDir: string | undefined;

  constructor(private readonly options: RemoteExecutorOptions) {
    this.sharedWorkspacesDir = options.workspacesDir;
  }

  async acquire(): Promise<AgentctlEndpoint> {
    const { endpoint, healthTimeoutMs } = this.options;
    try {
      await waitForServing(endpoint.grpcAddress, { timeoutMs: healthTimeoutMs, tls: endpoint.tls });
    } catch (error) {
      if (error instanceof TlsVerificationFailed) throw error;
      throw new AppError('unavailable', `remote agentctl at ${endpoint.grpcAddress} is not serving`, undefined, {
        cause: error,
      });
    }
    this.announce();
    return endpoint;
  }

  endpointAt(grpcAddress: string): AgentctlEndpoint | undefined {
    return grpcAddress === this.options.endpoint.grpcAddress ? this.options.endpoint : undefined;
  }

  endpoints(): AgentctlEndpoint[] {
    return [this.options.endpoint];
  }

  /** The remote agentctl serves other sessions; StopSession already ended this one's runtime. */
  release(): Promise<void> {
    return Promise.resolve();
  }

  /** Announces the endpoint; the Attach client re-dials it with backoff while it is unreachable. */
  recover(): Promise<void> {
    const { grpcAddress, tls } = this.options.endpoint;
    if (tls === undefined) {
      this.options.logger.warn(
        { grpcAddress },
        'remote agentctl configured with insecure: true: gRPC (and its control token) travels in plaintext',
      );
    }
    this.announce();
    this.options.logger.info({ grpcAddress, tls: tls !== undefined }, 'remote agentctl configured');
    return Promise.resolve();
  }

  status(): AgentctlStatus {
    const { grpcAddress, mcpBaseUrl } = this.options.endpoint;
    return { running: true, pid: null, grpcAddress, mcpBaseUrl };
  }

  /** Not ours to stop. */
  stop(): Promise<void> {
    return Promise.resolve();
  }

  private announce(): void {
    if (this.announced) return;
    this.announced = true;
    this.options.events.up(this.options.slot, this.options.endpoint);
  }
}
