import type { AttachFollower } from './attach-pool';
import { type AgentctlEndpoint, agentctlKey } from './executor';
import type { Logger } from '../../platform/logger/logger';
import { attachLeaseName, type LeaseTiming } from '../../platform/cluster/attach-lease';
import type { WorkClaims } from '../../platform/cluster/leases';

export interface OwnedAttachDeps {
  claims: WorkClaims;
  timing: LeaseTiming;
  clock: () => Date;
  logger: Logger;
  /**
   * A fresh follower each time this replica takes the stream (a stopped one never follows again). It
   * calls `onReplaced` instead of re-opening when agentctl replaced its stream with a newer Attach.
   */
  create: (onReplaced: () => void) => AttachFollower;
}

/**
 * An AttachFollower that follows its agentctl only while this replica holds the agentctl's lease.
 * Every `renewMs` it claims the lease (a renewal while it holds it): taken → it opens the stream
 * (agentctl's latest-hello-wins replaces a stream a dead holder left); refused → another replica holds
 * it, and a stream this replica still had is stopped. A stream agentctl replaced with a newer Attach
 * (another replica took the lease while this one's renewal was late) is dropped and the lease asked at
 * once, rather than both replicas re-opening in turn until the next renewal. A stop releases the lease
 * so another replica takes over at its next renewal instead of after the TTL.
 */
export class OwnedAttach implements AttachFollower {
  private endpoint: AgentctlEndpoint | undefined;
  private follower: AttachFollower | undefined;
  private heldUntilMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: OwnedAttachDeps) {}

  /** Whether this replica has the stream now. */
  get owning(): boolean {
    return this.follower !== undefined;
  }

  follow(endpoint: AgentctlEndpoint): void {
    if (this.stopped) return;
    const previous = this.endpoint;
    this.endpoint = endpoint;
    if (previous !== undefined && agentctlKey(previous) !== agentctlKey(endpoint)) {
      // Another agentctl in this slot: the old one's lease is no longer ours to keep.
      this.ticking = this.ticking.then(() => this.letGo(previous));
    }
    if (this.follower !== undefined && previous !== undefined && agentctlKey(previous) === agentctlKey(endpoint)) {
      this.follower.follow(endpoint); // same agentctl (a new token): the supervisor decides
      return;
    }
    this.tickSoon(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    const endpoint = this.endpoint;
    if (endpoint !== undefined) await this.letGo(endpoint);
  }

  private tickSoon(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.ticking = this.ticking.then(() => this.tick());
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const endpoint = this.endpoint;
    if (this.stopped || endpoint === undefined) return;
    const { claims, timing, clock, logger } = this.deps;
    const name = attachLeaseName(agentctlKey(endpoint));
    const startedMs = clock().getTime();
    try {
      if (await claims.claim(name, timing.ttlMs)) {
        this.heldUntilMs = startedMs + timing.ttlMs;
        if (this.follower === undefined && !this.stopped) {
          logger.info({ grpcAddress: endpoint.grpcAddress, replicaId: claims.replicaId }, 'Attach lease taken');
          const follower = this.deps.create(() => this.replaced(follower));
          this.follower = follower;
          follower.follow(endpoint);
        }
      } else if (this.follower !== undefined) {
        logger.warn({ grpcAddress: endpoint.grpcAddress }, 'Attach lease held by another replica; stream stopped');
        await this.dropStream();
      }
    } catch (err) {
      // The database did not answer: keep the stream only while the lease we last took still runs.
      logger.warn({ err, grpcAddress: endpoint.grpcAddress }, 'Attach lease not renewed');
      if (this.follower !== undefined && clock().getTime() >= this.heldUntilMs) await this.dropStream();
    }
    if (!this.stopped) this.tickSoon(timing.renewMs);
  }

  private replaced(follower: AttachFollower): void {
    if (this.stopped || this.follower !== follower) return;
    this.ticking = this.ticking.then(async () => {
      if (this.follower === follower) await this.dropStream();
    });
    this.tickSoon(0); // runs after the drop: re-opens only if the lease is still this replica's
  }

  private async dropStream(): Promise<void> {
    const follower = this.follower;
    this.follower = undefined;
    await follower?.stop();
  }

  private async letGo(endpoint: AgentctlEndpoint): Promise<void> {
    await this.dropStream();
    await this.deps.claims
      .release(attachLeaseName(agentctlKey(endpoint)))
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'Attach lease not released (it expires)'));
  }
}
