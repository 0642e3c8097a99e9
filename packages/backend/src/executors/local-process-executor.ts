import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger';
import { connectableHost } from '../connectable-host';
import { canAdopt } from './agentctl-adoption';
import { adoptedHandle, type AgentctlHandle, spawnedHandle } from './agentctl-handle';
import { isAlive, spawnAgentctl, stopAgentctlProcess } from './agentctl-process';
import { readAgentctlState, removeAgentctlState, writeAgentctlState } from './agentctl-state-file';
import type { AgentctlEndpoint, AgentctlStatus } from './executor';
import { waitForServing } from './wait-for-serving';

export interface LocalProcessExecutorOptions {
  /** agentctl's entry script (dist/main.js). */
  entry: string;
  host: string;
  grpcPort: number;
  mcpPort: number;
  /** Control token; a random one is generated when undefined. */
  token: string | undefined;
  logLevel: string;
  /** Inherited variables (PATH, HOME, …) for agentctl and the agents it starts. */
  passEnv: Readonly<Record<string, string>>;
  logFile: string;
  /** Where the running agentctl is recorded, so a restarted backend can adopt it. */
  stateFile: string;
  startTimeoutMs: number;
  stopGraceMs: number;
  /** agentctl's per-call inactivity timeout for tool calls; agentctl's default when undefined. */
  toolCallTimeoutMs?: number;
  logger: Logger;
}

interface Running {
  handle: AgentctlHandle;
  endpoint: AgentctlEndpoint;
}

/** The entry script of the workspace's agentctl package (resolved, never imported). */
export function defaultAgentctlEntry(): string {
  return join(dirname(require.resolve('@kandev/agentctl/package.json')), 'dist', 'main.js');
}

/**
 * Runs agentctl as a detached child of this backend; reuses it while alive, restarts it when it died,
 * and adopts the one an earlier (crashed) backend left running on the same data dir.
 */
export class LocalProcessExecutor {
  private readonly token: string;
  private running: Running | undefined;
  private starting: Promise<Running> | undefined;
  private readonly endpointListeners: ((endpoint: AgentctlEndpoint) => void)[] = [];

  constructor(private readonly options: LocalProcessExecutorOptions) {
    this.token = options.token ?? randomBytes(32).toString('base64url');
  }

  /** Starts agentctl when none is running (or it died) and resolves once it serves gRPC. */
  async ensureAgentctl(): Promise<AgentctlEndpoint> {
    const running = this.alive();
    if (running !== undefined) return running.endpoint;
    this.starting ??= this.adoptOrStart().finally(() => {
      this.starting = undefined;
    });
    return (await this.starting).endpoint;
  }

  /** Called with every agentctl this executor starts or adopts (at boot, after a restart). */
  onAgentctl(listener: (endpoint: AgentctlEndpoint) => void): void {
    this.endpointListeners.push(listener);
  }

  /** The running agentctl, without starting one. */
  liveEndpoint(): AgentctlEndpoint | undefined {
    return this.alive()?.endpoint;
  }

  status(): AgentctlStatus {
    const running = this.alive();
    return {
      running: running !== undefined,
      pid: running?.handle.pid ?? null,
      grpcAddress: running?.endpoint.grpcAddress ?? null,
      mcpBaseUrl: running?.endpoint.mcpBaseUrl ?? null,
    };
  }

  /** Stops the agentctl this executor started or adopted (no-op when none). */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    if (running === undefined) return;
    this.options.logger.info({ agentctlPid: running.handle.pid }, 'stopping agentctl');
    await running.handle.stop(this.options.stopGraceMs);
    removeAgentctlState(this.options.stateFile);
  }

  private alive(): Running | undefined {
    return this.running !== undefined && this.running.handle.isAlive() ? this.running : undefined;
  }

  private async adoptOrStart(): Promise<Running> {
    this.running = (await this.adopt()) ?? (await this.start());
    const { handle, endpoint } = this.running;
    writeAgentctlState(this.options.stateFile, { pid: handle.pid, ...endpoint, startedAt: new Date().toISOString() });
    for (const listener of this.endpointListeners) listener(endpoint);
    return this.running;
  }

  private async adopt(): Promise<Running | undefined> {
    const state = readAgentctlState(this.options.stateFile);
    if (state === undefined) return undefined;
    if (!(await canAdopt(state, 2_000))) {
      this.options.logger.info({ agentctlPid: state.pid }, 'recorded agentctl is gone; starting a new one');
      removeAgentctlState(this.options.stateFile);
      return undefined;
    }
    const { pid, grpcAddress, mcpBaseUrl, controlToken } = state;
    this.options.logger.info(
      { agentctlPid: pid, grpcAddress },
      'adopted the agentctl left running by an earlier backend',
    );
    return { handle: adoptedHandle(pid), endpoint: { grpcAddress, mcpBaseUrl, controlToken } };
  }

  private async start(): Promise<Running> {
    const { logger, startTimeoutMs } = this.options;
    const deadline = Date.now() + startTimeoutMs;
    const { child, ready } = await spawnAgentctl({
      entry: this.options.entry,
      env: this.childEnv(),
      logFile: this.options.logFile,
      readyTimeoutMs: startTimeoutMs,
    });
    const pid = child.pid ?? ready.pid;
    const handle = spawnedHandle(child, pid);
    child.on('error', (err) => logger.warn({ err, agentctlPid: pid }, 'agentctl process error'));
    child.once('exit', (code, signal) => {
      const expected = this.running?.handle !== handle; // stop() clears `running` before stopping
      logger[expected ? 'info' : 'warn']({ agentctlPid: pid, code, signal }, 'agentctl exited');
    });
    const host = connectableHost(this.options.host);
    const endpoint: AgentctlEndpoint = {
      grpcAddress: `${host}:${ready.grpcPort}`,
      mcpBaseUrl: `http://${host}:${ready.mcpPort}`,
      controlToken: this.token,
    };
    try {
      await waitForServing(endpoint.grpcAddress, {
        timeoutMs: Math.max(1, deadline - Date.now()),
        isAbandoned: () => !isAlive(child),
      });
    } catch (error) {
      await stopAgentctlProcess(child, this.options.stopGraceMs);
      throw error;
    }
    logger.info({ agentctlPid: pid, ...endpoint, controlToken: undefined }, 'agentctl started');
    return { handle, endpoint };
  }

  private childEnv(): Record<string, string> {
    return {
      ...this.options.passEnv,
      KANDEV_AGENTCTL_TOKEN: this.token,
      KANDEV_AGENTCTL_HOST: this.options.host,
      KANDEV_AGENTCTL_GRPC_PORT: String(this.options.grpcPort),
      KANDEV_AGENTCTL_MCP_PORT: String(this.options.mcpPort),
      LOG_LEVEL: this.options.logLevel,
      ...(this.options.toolCallTimeoutMs === undefined
        ? {}
        : { KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: String(this.options.toolCallTimeoutMs) }),
    };
  }
}
