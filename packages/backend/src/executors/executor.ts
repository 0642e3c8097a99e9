/** How the backend reaches one running agentctl. */
export interface AgentctlEndpoint {
  /** host:port of the gRPC control server. */
  grpcAddress: string;
  /** http://host:port of the MCP listener; a session's endpoint is this + mcpPathFor(id). */
  mcpBaseUrl: string;
  /** Bearer for every AgentCtl call. */
  controlToken: string;
}

export interface AgentctlStatus {
  running: boolean;
  pid: number | null;
  grpcAddress: string | null;
  mcpBaseUrl: string | null;
}

/** Something that can provide an agentctl (a local child process now; a container or remote later). */
export interface Executor {
  /** Stored on session rows, e.g. 'local'. */
  readonly name: string;
  /** Starts agentctl when none is running (or it died) and resolves once it serves gRPC. */
  ensureAgentctl(): Promise<AgentctlEndpoint>;
  /** The running agentctl, without starting one. */
  current(): AgentctlEndpoint | undefined;
  status(): AgentctlStatus;
  /** Stops the agentctl this executor started (no-op when none). */
  stop(): Promise<void>;
}
