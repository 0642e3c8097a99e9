import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../../../platform/logger/logger';
import { connectableHost } from '../../../platform/net/connectable-host';
import { canAdopt } from './agentctl-adoption';
import { adoptedHandle, type AgentctlHandle, spawnedHandle } from './agentctl-handle';
import { isAlive, spawnAgentctl, stopAgentctlProcess } from './agentctl-process';
import { readAgentctlState, removeAgentctlState, writeAgentctlState } from './agentctl-state-file';
import type { AgentctlEndpoint, AgentctlStatus } from '../../agentctl/executor';
import { waitForServing } from '../wait-for-serving';

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
  /** Pauses between failed restarts after a loss: doubling from the first, capped (default 250 ms .. 5 s). */
  restartBackoff?: { baseMs: number; maxDelayMs: number };
  logger: Logger;
}

const RESTART_BACKOFF = { baseMs: 250, maxDelayMs: 5_000 };
/** How long, and how often, an adopted agentctl whose stream ended is checked for having exited. */
const ADOPTED_EXIT_WATCH = { intervalMs: 100, forMs: 5_000 };

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
  private readonly lossListeners: ((endpoint: AgentctlEndpoint) => void)[] = [];
  /** Set while a restart after a loss runs (at most one). */
  private restarting: Promise<void> | undefined;
  private restartTimer: { timer: NodeJS.Timeout; wake: () => void } | undefined;
  private stopped = false;
  /** The ports of the agentctl that was lost, tried first by its replacement (see lost()). */
  private reusePorts: { grpcPort: number; mcpPort: number } | undefined;

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

  /** Called when the agentctl dies without being asked to (before the restart that follows at once). */
  onLost(listener: (endpoint: AgentctlEndpoint) => void): void {
    this.lossListeners.push(listener);
  }

  /**
   * The Attach stream to the agentctl ended: an adopted agentctl (not our child, so no exit event)
   * that is gone is treated like a child that exited. A live one only dropped the stream (it re-opens).
   */
  noticeDetached(): void {
    const running = this.running;
    if (running === undefined) return;
    if (!running.handle.isAlive()) return this.lost(running);
    // The stream can end while a killed process is still exiting (its sockets close before it is a
    // zombie), so an adopted one that still looks alive is watched a little longer.
    if (running.handle.adopted) void this.watchAdoptedExit(running);
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
    this.stopped = true;
    this.restartTimer?.wake();
    await this.restarting;
    await this.starting?.catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    if (running === undefined) return;
    this.options.logger.info({ agentctlPid: running.handle.pid }, 'stopping agentctl');
    await running.handle.stop(this.options.stopGraceMs);
    removeAgentctlState(this.options.stateFile);
  }

  /**
   * An agentctl died under us: say so once, then start another at once; failed starts are retried
   * after a doubling, capped pause until one serves or the executor stops (a launch meanwhile joins
   * the same start through ensureAgentctl).
   */
  private lost(running: Running): void {
    if (this.restarting !== undefined || this.stopped || this.running !== running) return;
    this.options.logger.warn({ agentctlPid: running.handle.pid }, 'agentctl lost; restarting it');
    for (const listener of this.lossListeners) listener(running.endpoint);
    // With OS-chosen ports (0), the replacement asks for the lost one's ports first, so the MCP URLs
    // its sessions' clients hold stay valid; when they are taken it falls back to the configured ones.
    this.reusePorts = portsOf(running.endpoint);
    this.restarting = this.restartLoop().finally(() => {
      this.restarting = undefined;
    });
  }

  private async restartLoop(): Promise<void> {
    const { baseMs, maxDelayMs } = this.options.restartBackoff ?? RESTART_BACKOFF;
    for (let attempt = 0; !this.stopped; attempt += 1) {
      try {
        await this.ensureAgentctl();
        this.reusePorts = undefined;
        return;
      } catch (err) {
        this.reusePorts = undefined;
        const delayMs = Math.min(maxDelayMs, baseMs * 2 ** attempt);
        this.options.logger.error({ err, attempt, delayMs }, 'agentctl restart failed; trying again');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delayMs);
          this.restartTimer = { timer, wake: resolve };
        });
        if (this.restartTimer !== undefined) clearTimeout(this.restartTimer.timer);
        this.restartTimer = undefined;
      }
    }
  }

  private async watchAdoptedExit(running: Running): Promise<void> {
    const { intervalMs, forMs } = ADOPTED_EXIT_WATCH;
    for (let waited = 0; waited < forMs && this.running === running && !this.stopped; waited += intervalMs) {
      await delay(intervalMs);
      if (!running.handle.isAlive()) return this.lost(running);
    }
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
      const running = this.running;
      const expected = running?.handle !== handle; // stop() clears `running` before stopping
      logger[expected ? 'info' : 'warn']({ agentctlPid: pid, code, signal }, 'agentctl exited');
      if (!expected && running !== undefined) this.lost(running);
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
      KANDEV_AGENTCTL_GRPC_PORT: String(this.options.grpcPort || (this.reusePorts?.grpcPort ?? 0)),
      KANDEV_AGENTCTL_MCP_PORT: String(this.options.mcpPort || (this.reusePorts?.mcpPort ?? 0)),
      LOG_LEVEL: this.options.logLevel,
      ...(this.options.toolCallTimeoutMs === undefined
        ? {}
        : { KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: String(this.options.toolCallTimeoutMs) }),
    };
  }
}

function portsOf(endpoint: AgentctlEndpoint): { grpcPort: number; mcpPort: number } | undefined {
  const grpcPort = Number(endpoint.grpcAddress.slice(endpoint.grpcAddress.lastIndexOf(':') + 1));
  const mcpPort = Number(new URL(endpoint.mcpBaseUrl).port);
  return Number.isInteger(grpcPort) && grpcPort > 0 && Number.isInteger(mcpPort) && mcpPort > 0
    ? { grpcPort, mcpPort }
    : undefined;
}
