import { randomBytes } from 'node:crypto';
import type Dockerode from 'dockerode';
import { AppError } from '@kandev/protocol';
import type { Logger } from '../../../platform/logger/logger';
import { connectableHost } from '../../../platform/net/connectable-host';
import { containerSpec, LABELS, labelFilter, publishedPorts } from './docker-container-spec';
import { DockerTlsFiles } from './docker-tls-files';
import { DockerTokenFiles } from './docker-token-files';
import type { AgentctlEndpoint, AgentctlEvents, ExecutorBackend, WorkspaceMount } from '../../agentctl/executor';
import type { DockerTls } from '../executor-tls-config';
import { PerSessionExecutor } from '../per-session-executor';
import { waitForServing } from '../wait-for-serving';

export interface DockerExecutorOptions {
  docker: Dockerode;
  /** The executor (or profile) name: on session rows and on the containers' labels. */
  name: string;
  image: string;
  /** Identifies this backend's containers (stable across restarts on one data dir). */
  backendId: string;
  /** Where the containers' token files live (0700). */
  tokenDir: string;
  publishHost: string;
  network: string | undefined;
  logLevel: string;
  toolCallTimeoutMs: number | undefined;
  startTimeoutMs: number;
  /** Undefined: plaintext gRPC to the containers. */
  tls: DockerTls | undefined;
  events: AgentctlEvents;
  logger: Logger;
}

interface Managed {
  sessionId: string;
  containerId: string;
  name: string;
  endpoint: AgentctlEndpoint;
  /** Set before the executor removes it, so its exit is not reported as a loss. */
  retiring: boolean;
}

/**
 * One agentctl container per session, through the Docker Engine API: labelled with this backend's id,
 * the executor and the session; control token in a read-only mounted file; gRPC and MCP published on
 * 127.0.0.1. A launch waits for gRPC health; stop (and a graceful backend stop) removes the container;
 * a container that exits on its own is reported lost (the session fails, resume starts a new one).
 */
export class DockerExecutor extends PerSessionExecutor<Managed> implements ExecutorBackend {
  readonly kind = 'docker';
  private readonly tokens: DockerTokenFiles;
  private readonly tlsFiles: DockerTlsFiles;

  constructor(private readonly options: DockerExecutorOptions) {
    super();
    this.tokens = new DockerTokenFiles(options.tokenDir);
    this.tlsFiles = new DockerTlsFiles(options.tokenDir);
  }

  /** Reattaches this backend's running containers of live sessions; removes every other one. */
  async recover(isLiveSession: (sessionId: string) => Promise<boolean>): Promise<void> {
    const { docker, backendId, name, logger } = this.options;
    const found = await docker.listContainers({ all: true, filters: labelFilter(backendId, name) });
    for (const info of found) {
      const sessionId = info.Labels[LABELS.session] ?? '';
      const containerName = (info.Names[0] ?? '').replace(/^\//, '');
      const adopted =
        info.State === 'running' && sessionId.length > 0 && (await isLiveSession(sessionId))
          ? await this.reattach(info.Id, containerName, sessionId)
          : undefined;
      if (adopted === undefined) {
        logger.info({ containerId: info.Id, sessionId, state: info.State }, 'removing a leftover agentctl container');
        await this.removeContainer(info.Id, containerName);
      }
    }
  }

  /** Graceful backend stop: removes every container it runs (the executor cleans up what it launched). */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.starting.values()]);
    await Promise.allSettled([...this.managed.values()].map((m) => this.retire(m)));
  }

  protected override async start(sessionId: string, workspace: WorkspaceMount | undefined): Promise<Managed> {
    const { docker, logger } = this.options;
    const stale = this.managed.get(sessionId);
    if (stale !== undefined) await this.retire(stale);
    await this.removeLeftovers(sessionId);
    const agentctlId = randomBytes(6).toString('hex');
    const name = `kandev-agentctl-${sessionId.slice(0, 8)}-${agentctlId}`;
    const { path: tokenFile, token } = this.tokens.create(name);
    const tlsFiles = this.options.tls === undefined ? undefined : this.tlsFiles.create(name, this.options.tls.server);
    let container: Dockerode.Container | undefined;
    try {
      container = await docker.createContainer(
        containerSpec({
          ...this.options,
          executorName: this.options.name,
          name,
          sessionId,
          agentctlId,
          tokenFile,
          tlsFiles,
          workspace,
          workspaceUser: backendUser(),
        }),
      );
      await container.start();
      const managed = await this.connect(container.id, name, sessionId, token);
      logger.info(
        { sessionId, containerId: container.id, grpcAddress: managed.endpoint.grpcAddress },
        'agentctl container started',
      );
      return managed;
    } catch (error) {
      if (container !== undefined) await this.removeContainer(container.id, name);
      else this.forgetFiles(name);
      if (error instanceof AppError) throw error;
      throw new AppError('unavailable', `docker executor could not start agentctl: ${describe(error)}`, undefined, {
        cause: error,
      });
    }
  }

  /** Reads the published ports, waits for gRPC health, records the container and watches it. */
  private async connect(containerId: string, name: string, sessionId: string, token: string): Promise<Managed> {
    const info = await this.options.docker.getContainer(containerId).inspect();
    const ports = publishedPorts(info);
    if (ports === undefined) throw new AppError('unavailable', `container ${name} published no agentctl ports`);
    const host = connectableHost(this.options.publishHost);
    const endpoint: AgentctlEndpoint = {
      grpcAddress: `${host}:${ports.grpcPort}`,
      mcpBaseUrl: `http://${host}:${ports.mcpPort}`,
      controlToken: token,
      ...(this.options.tls === undefined ? {} : { tls: this.options.tls.client }),
    };
    await waitForServing(endpoint.grpcAddress, { timeoutMs: this.options.startTimeoutMs, tls: endpoint.tls });
    const managed: Managed = { sessionId, containerId, name, endpoint, retiring: false };
    this.managed.set(sessionId, managed);
    this.watch(managed);
    this.options.events.up(this.slotOf(sessionId), endpoint);
    return managed;
  }

  private async reattach(containerId: string, name: string, sessionId: string): Promise<Managed | undefined> {
    const token = this.tokens.read(name);
    if (token === undefined) return undefined;
    try {
      const managed = await this.connect(containerId, name, sessionId, token);
      this.options.logger.info({ sessionId, containerId }, 'reattached an agentctl container');
      return managed;
    } catch (err) {
      this.options.logger.warn({ err, sessionId, containerId }, 'could not reattach an agentctl container');
      return undefined;
    }
  }

  /** Reports a container that exits without being asked to, then removes it. */
  private watch(m: Managed): void {
    const container = this.options.docker.getContainer(m.containerId);
    container
      .wait()
      .then(
        (result: { StatusCode?: number }) => `agentctl container exited (status ${result.StatusCode ?? 'unknown'})`,
        (error: unknown) => `agentctl container is gone (${describe(error)})`,
      )
      .then(async (reason) => {
        if (m.retiring || this.managed.get(m.sessionId) !== m) return;
        this.managed.delete(m.sessionId);
        this.options.logger.warn(
          { sessionId: m.sessionId, containerId: m.containerId, reason },
          'agentctl container died',
        );
        this.options.events.down(this.slotOf(m.sessionId), m.endpoint);
        this.options.events.lost({ id: m.sessionId, agentctlAddress: m.endpoint.grpcAddress }, reason);
        await this.removeContainer(m.containerId, m.name);
      })
      .catch((err: unknown) => this.options.logger.warn({ err, containerId: m.containerId }, 'container watch failed'));
  }

  protected override async retire(m: Managed): Promise<void> {
    m.retiring = true;
    if (this.managed.get(m.sessionId) === m) this.managed.delete(m.sessionId);
    this.options.events.down(this.slotOf(m.sessionId), m.endpoint);
    await this.removeContainer(m.containerId, m.name);
  }

  /** Containers labelled with the session that the executor does not track (e.g. a failed start). */
  protected override async removeLeftovers(sessionId: string): Promise<void> {
    const { docker, backendId, name } = this.options;
    const found = await docker.listContainers({ all: true, filters: labelFilter(backendId, name, sessionId) });
    for (const info of found) {
      if ([...this.managed.values()].some((m) => m.containerId === info.Id)) continue;
      await this.removeContainer(info.Id, (info.Names[0] ?? '').replace(/^\//, ''));
    }
  }

  private async removeContainer(containerId: string, name: string): Promise<void> {
    try {
      await this.options.docker.getContainer(containerId).remove({ force: true, v: true });
    } catch (error) {
      if (statusOf(error) !== 404) this.options.logger.warn({ err: error, containerId }, 'container removal failed');
    }
    if (name.length > 0) this.forgetFiles(name);
  }

  private forgetFiles(name: string): void {
    this.tokens.remove(name);
    this.tlsFiles.remove(name);
  }

  protected override async isRunning(m: Managed): Promise<boolean> {
    try {
      return (await this.options.docker.getContainer(m.containerId).inspect()).State.Running;
    } catch {
      return false;
    }
  }

  private slotOf(sessionId: string): string {
    return `${this.options.name}:${sessionId}`;
  }
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The backend process's `uid:gid` (undefined where the platform has none). */
function backendUser(): string | undefined {
  return process.getuid === undefined || process.getgid === undefined
    ? undefined
    : `${process.getuid()}:${process.getgid()}`;
}
