import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import { AppError } from '@kandev/protocol';
import type { Logger } from '../../../platform/logger/logger';
import { LABELS } from '../docker/docker-container-spec';
import type { AgentctlEndpoint, AgentctlEvents, ExecutorBackend, WorkspaceMount } from '../../agentctl/executor';
import type { KubernetesApi } from './kubernetes-api';
import type { KubernetesEntry } from './kubernetes-config';
import { PodWatch } from './kubernetes-pod-watch';
import { labelSelector, podCondition, podSpec, SECRET_KEYS, secretSpec, workspaceMounts } from './kubernetes-pod-spec';
import { PerSessionExecutor } from '../per-session-executor';
import { waitForServing } from '../wait-for-serving';

export interface KubernetesExecutorOptions {
  api: KubernetesApi;
  profile: KubernetesEntry;
  /** The label value this deployment's pods carry (shared by its replicas). */
  backendId: string;
  /** KANDEV_WORKSPACES_DIR: where the backend sees the profile's workspaces claim. */
  workspacesDir: string;
  logLevel: string;
  toolCallTimeoutMs: number | undefined;
  events: AgentctlEvents;
  logger: Logger;
}

interface Managed {
  sessionId: string;
  name: string;
  endpoint: AgentctlEndpoint;
  /** Set before the executor deletes it, so its end is not reported as a loss. */
  retiring: boolean;
}

/**
 * One agentctl pod per session through the Kubernetes API: labelled with the deployment's backend id,
 * the executor and the session; control token (and agentctl's TLS files) in a Secret owned by the pod
 * and mounted read-only; reached at the pod IP once gRPC health answers SERVING. Stop deletes the pod
 * and its Secret; a pod that ends on its own is reported lost. A graceful backend stop leaves the pods
 * (another replica, or this one restarted, adopts them); at boot the pods of sessions the database
 * says are gone are deleted (docs/kubernetes.md).
 */
export class KubernetesExecutor extends PerSessionExecutor<Managed> implements ExecutorBackend {
  readonly kind = 'kubernetes';
  private readonly watch: PodWatch;

  constructor(private readonly options: KubernetesExecutorOptions) {
    super();
    // Reports the pods that end or vanish without being asked to.
    this.watch = new PodWatch({
      api: options.api,
      labelSelector: labelSelector(options.backendId, options.profile.name),
      onPod: (deleted, pod) => this.onPodEvent(deleted, pod),
      watched: () => [...this.managed.values()].map((m) => m.name),
      logger: options.logger,
    });
  }

  private get selector(): string {
    return labelSelector(this.options.backendId, this.options.profile.name);
  }

  /**
   * Adopts the running pods of live sessions (any replica's: they share the backend id); deletes the
   * pods of sessions the database says are gone, and ended ones. A pending pod of a live session is
   * left alone: another replica may be starting it.
   */
  async recover(isLiveSession: (sessionId: string) => Promise<boolean>): Promise<void> {
    await this.watch.ensure();
    for (const pod of await this.options.api.listPods(this.selector)) {
      const name = pod.metadata?.name ?? '';
      const sessionId = pod.metadata?.labels?.[LABELS.session] ?? '';
      const condition = podCondition(pod);
      const live = sessionId.length > 0 && (await isLiveSession(sessionId));
      if (live && condition.state === 'pending') continue;
      const adopted =
        live && condition.state === 'running' && !this.managed.has(sessionId)
          ? await this.reattach(name, sessionId, condition.podIp)
          : undefined;
      if (adopted === undefined && !this.managed.has(sessionId)) {
        this.options.logger.info({ pod: name, sessionId, live }, 'removing a leftover agentctl pod');
        await this.removePod(name);
      }
    }
  }

  /** Graceful backend stop: stops watching and leaves the pods to whoever adopts them next. */
  async stop(): Promise<void> {
    this.watch.stop();
    await Promise.allSettled([...this.starting.values()]);
    for (const m of this.managed.values()) this.options.events.down(this.slotOf(m.sessionId), m.endpoint);
    this.managed.clear();
  }

  protected override async start(sessionId: string, workspace: WorkspaceMount | undefined): Promise<Managed> {
    const { api, profile, logger } = this.options;
    const stale = this.managed.get(sessionId);
    if (stale !== undefined) await this.retire(stale);
    await this.removeLeftovers(sessionId);
    await this.watch.ensure();
    const agentctlId = randomBytes(6).toString('hex');
    const name = `kandev-agentctl-${sessionId
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 8)}-${agentctlId}`;
    const token = randomBytes(32).toString('base64url');
    const input = { ...this.options, name, sessionId, agentctlId, workspace };
    const unreachable = workspaceMounts(input).unreachable;
    if (unreachable.length > 0) {
      logger.warn({ sessionId, paths: unreachable }, 'not on the workspaces claim: the pod cannot mount these');
    }
    try {
      // The pod first: its Secret is owned by it, so deleting the pod (by anyone) deletes the token too.
      const pod = await api.createPod(podSpec(input, profile.tls?.server));
      const secret = secretSpec(input, token, profile.tls?.server);
      const uid = pod.metadata?.uid;
      if (uid !== undefined) {
        secret.metadata = {
          ...secret.metadata,
          ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name, uid, blockOwnerDeletion: false }],
        };
      }
      await api.createSecret(secret);
      const podIp = await this.runningIp(name);
      const managed = await this.connect(name, sessionId, token, podIp);
      logger.info({ sessionId, pod: name, grpcAddress: managed.endpoint.grpcAddress }, 'agentctl pod started');
      return managed;
    } catch (error) {
      await this.removePod(name);
      if (error instanceof AppError) throw error;
      throw new AppError(
        'unavailable',
        `kubernetes executor ${profile.name} could not start agentctl: ${describe(error)}`,
        undefined,
        { cause: error },
      );
    }
  }

  /** Waits (get, with backoff) until the pod runs with an IP; an ended pod or the deadline is a refusal. */
  private async runningIp(name: string): Promise<string> {
    const deadline = Date.now() + this.options.profile.startTimeoutMs;
    let pauseMs = 50;
    for (;;) {
      const pod = await this.options.api.readPod(name);
      if (pod === undefined) throw new AppError('unavailable', `agentctl pod ${name} was deleted while starting`);
      const condition = podCondition(pod);
      if (condition.state === 'running') return condition.podIp;
      if (condition.state === 'ended') throw new AppError('unavailable', `${condition.reason} while starting`);
      if (Date.now() >= deadline) {
        throw new AppError(
          'unavailable',
          `agentctl pod ${name} not running within ${this.options.profile.startTimeoutMs} ms`,
        );
      }
      await delay(pauseMs);
      pauseMs = Math.min(pauseMs * 2, 1_000);
    }
  }

  /** Waits for gRPC health at the pod IP, records the pod and announces it. */
  private async connect(name: string, sessionId: string, token: string, podIp: string): Promise<Managed> {
    const { profile } = this.options;
    const host = podIp.includes(':') ? `[${podIp}]` : podIp;
    const endpoint: AgentctlEndpoint = {
      grpcAddress: `${host}:${profile.grpcPort}`,
      mcpBaseUrl: `http://${host}:${profile.mcpPort}`,
      controlToken: token,
      ...(profile.tls === undefined ? {} : { tls: profile.tls.client }),
    };
    await waitForServing(endpoint.grpcAddress, { timeoutMs: profile.startTimeoutMs, tls: endpoint.tls });
    const managed: Managed = { sessionId, name, endpoint, retiring: false };
    this.managed.set(sessionId, managed);
    this.options.events.up(this.slotOf(sessionId), endpoint);
    return managed;
  }

  /** Adopts a running pod: its token comes back from its Secret (replicas share no data dir). */
  private async reattach(name: string, sessionId: string, podIp: string): Promise<Managed | undefined> {
    try {
      const secret = await this.options.api.readSecret(name);
      const encoded = secret?.data?.[SECRET_KEYS.token];
      if (encoded === undefined) return undefined;
      const managed = await this.connect(name, sessionId, Buffer.from(encoded, 'base64').toString('utf8'), podIp);
      this.options.logger.info({ sessionId, pod: name }, 'adopted an agentctl pod');
      return managed;
    } catch (err) {
      this.options.logger.warn({ err: describe(err), sessionId, pod: name }, 'could not adopt an agentctl pod');
      return undefined;
    }
  }

  private onPodEvent(deleted: boolean, pod: V1Pod): void {
    const name = pod.metadata?.name;
    const m = [...this.managed.values()].find((candidate) => candidate.name === name);
    if (m === undefined || m.retiring) return;
    const condition = podCondition(pod);
    if (!deleted && condition.state !== 'ended') return;
    const reason = deleted ? 'agentctl pod was deleted' : condition.state === 'ended' ? condition.reason : 'ended';
    this.managed.delete(m.sessionId);
    this.options.logger.warn({ sessionId: m.sessionId, pod: m.name, reason }, 'agentctl pod died');
    this.options.events.down(this.slotOf(m.sessionId), m.endpoint);
    this.options.events.lost({ id: m.sessionId, agentctlAddress: m.endpoint.grpcAddress }, reason);
    void this.removePod(m.name);
  }

  protected override async retire(m: Managed): Promise<void> {
    m.retiring = true;
    if (this.managed.get(m.sessionId) === m) this.managed.delete(m.sessionId);
    this.options.events.down(this.slotOf(m.sessionId), m.endpoint);
    await this.removePod(m.name);
  }

  /** Pods labelled with the session that the executor does not track (a failed start, another replica's). */
  protected override async removeLeftovers(sessionId: string): Promise<void> {
    const { api, backendId, profile } = this.options;
    for (const pod of await api.listPods(labelSelector(backendId, profile.name, sessionId))) {
      const name = pod.metadata?.name ?? '';
      if ([...this.managed.values()].some((m) => m.name === name)) continue;
      await this.removePod(name);
    }
  }

  /** The pod and its Secret (owned by the pod; deleted explicitly too, so it goes at once). */
  private async removePod(name: string): Promise<void> {
    if (name.length === 0) return;
    for (const remove of [() => this.options.api.deletePod(name), () => this.options.api.deleteSecret(name)]) {
      try {
        await remove();
      } catch (err) {
        this.options.logger.warn({ err: describe(err), pod: name }, 'agentctl pod or Secret removal failed');
      }
    }
  }

  protected override async isRunning(m: Managed): Promise<boolean> {
    try {
      const pod = await this.options.api.readPod(m.name);
      return pod !== undefined && podCondition(pod).state === 'running';
    } catch {
      return false;
    }
  }

  private slotOf(sessionId: string): string {
    return `${this.options.profile.name}:${sessionId}`;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
