import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger';
import { connectableHost } from '../connectable-host';
import { isAlive, spawnAgentctl, stopAgentctlProcess } from './agentctl-process';
import type { AgentctlEndpoint, AgentctlStatus, Executor } from './executor';
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
  startTimeoutMs: number;
  stopGraceMs: number;
  logger: Logger;
}

interface Running {
  child: ChildProcess;
  pid: number;
  endpoint: AgentctlEndpoint;
}

/** The entry script of the workspace's agentctl package (resolved, never imported). */
export function defaultAgentctlEntry(): string {
  return join(dirname(require.resolve('@kandev/agentctl/package.json')), 'dist', 'main.js');
}

/** Runs agentctl as a detached child of this backend; reuses it while alive, restarts it when it died. */
export class LocalProcessExecutor implements Executor {
  readonly name = 'local';
  private readonly token: string;
  private running: Running | undefined;
  private starting: Promise<Running> | undefined;
  private readonly stopping = new WeakSet<ChildProcess>();

  constructor(private readonly options: LocalProcessExecutorOptions) {
    this.token = options.token ?? randomBytes(32).toString('base64url');
  }

  async ensureAgentctl(): Promise<AgentctlEndpoint> {
    if (this.running !== undefined && isAlive(this.running.child)) return this.running.endpoint;
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return (await this.starting).endpoint;
  }

  current(): AgentctlEndpoint | undefined {
    return this.running !== undefined && isAlive(this.running.child) ? this.running.endpoint : undefined;
  }

  status(): AgentctlStatus {
    const running = this.running !== undefined && isAlive(this.running.child) ? this.running : undefined;
    return {
      running: running !== undefined,
      pid: running?.pid ?? null,
      grpcAddress: running?.endpoint.grpcAddress ?? null,
      mcpBaseUrl: running?.endpoint.mcpBaseUrl ?? null,
    };
  }

  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    if (running === undefined) return;
    this.options.logger.info({ agentctlPid: running.pid }, 'stopping agentctl');
    this.stopping.add(running.child);
    await stopAgentctlProcess(running.child, this.options.stopGraceMs);
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
    child.on('error', (err) => logger.warn({ err, agentctlPid: pid }, 'agentctl process error'));
    child.once('exit', (code, signal) => {
      const level = this.stopping.has(child) ? 'info' : 'warn';
      logger[level]({ agentctlPid: pid, code, signal }, 'agentctl exited');
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
    logger.info(
      { agentctlPid: pid, grpcAddress: endpoint.grpcAddress, mcpBaseUrl: endpoint.mcpBaseUrl },
      'agentctl started',
    );
    this.running = { child, pid, endpoint };
    return this.running;
  }

  private childEnv(): Record<string, string> {
    return {
      ...this.options.passEnv,
      KANDEV_AGENTCTL_TOKEN: this.token,
      KANDEV_AGENTCTL_HOST: this.options.host,
      KANDEV_AGENTCTL_GRPC_PORT: String(this.options.grpcPort),
      KANDEV_AGENTCTL_MCP_PORT: String(this.options.mcpPort),
      LOG_LEVEL: this.options.logLevel,
    };
  }
}
