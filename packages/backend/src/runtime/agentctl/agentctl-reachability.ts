import { AGENTCTL_SERVICE_NAME, checkHealth } from '@kandev/protocol';
import type { Logger } from '../../platform/logger/logger';
import { type AgentctlEndpoint, isPerSessionKind } from './executor';

/** One health check of the agentctl at an address: true when it answers SERVING in time. */
export type HealthProbe = (endpoint: AgentctlEndpoint, timeoutMs: number) => Promise<boolean>;

/** Schedules the next probe (a real, unref'd timeout by default; tests step through fake ones). */
export type StartProbeTimer = (fire: () => void, delayMs: number) => { cancel(): void };

export interface ReachabilityOptions {
  /** Pause between probes while it answers. */
  intervalMs: number;
  /** Each probe's deadline. */
  timeoutMs: number;
  /** Pauses between probes while it does not answer: doubling from baseMs, at most maxDelayMs. */
  backoff: { baseMs: number; maxDelayMs: number };
  logger: Logger;
  probe?: HealthProbe;
  startTimer?: StartProbeTimer;
}

/** Probe every second with a one-second deadline: a hung agentctl is noticed within about 2 s. */
export const REACHABILITY_DEFAULTS = {
  intervalMs: 1_000,
  timeoutMs: 1_000,
  backoff: { baseMs: 250, maxDelayMs: 2_000 },
};

const grpcHealth: HealthProbe = async (endpoint, timeoutMs) =>
  (await checkHealth(endpoint.grpcAddress, AGENTCTL_SERVICE_NAME, { timeoutMs, tls: endpoint.tls })) === 'SERVING';

const realTimer: StartProbeTimer = (fire, delayMs) => {
  const timer = setTimeout(fire, delayMs);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
};

interface Watch {
  endpoint: AgentctlEndpoint;
  reachable: boolean;
  failures: number;
  timer: { cancel(): void } | undefined;
  probing: boolean;
  stopped: boolean;
}

/**
 * Whether each agentctl that is up answers: the standard gRPC health check, every intervalMs while it
 * does, with backoff while it does not; an Attach stream that ends probes at once, one agentctl
 * accepts marks it reachable. GET /api/agentctl and /readyz read it (ADR: agentctl loss and repair).
 */
export class AgentctlReachability {
  private readonly watches = new Map<string, Watch>();
  private stopped = false;

  constructor(private readonly options: ReachabilityOptions) {}

  up(endpoint: AgentctlEndpoint): void {
    if (this.stopped) return;
    this.down(endpoint);
    const watch: Watch = { endpoint, reachable: false, failures: 0, timer: undefined, probing: false, stopped: false };
    this.watches.set(endpoint.grpcAddress, watch);
    this.probe(watch);
  }

  down(endpoint: AgentctlEndpoint): void {
    const watch = this.watches.get(endpoint.grpcAddress);
    if (watch === undefined) return;
    watch.stopped = true;
    watch.timer?.cancel();
    this.watches.delete(endpoint.grpcAddress);
  }

  /** agentctl accepted an Attach stream: it answers now. */
  attached(endpoint: AgentctlEndpoint): void {
    const watch = this.watches.get(endpoint.grpcAddress);
    if (watch !== undefined) this.record(watch, true);
  }

  /** An accepted Attach stream ended: ask now rather than at the next interval. */
  detached(endpoint: AgentctlEndpoint): void {
    const watch = this.watches.get(endpoint.grpcAddress);
    if (watch === undefined) return;
    watch.timer?.cancel();
    this.probe(watch);
  }

  /** False for an address nobody announced (or one that went). */
  isReachable(grpcAddress: string): boolean {
    return this.watches.get(grpcAddress)?.reachable ?? false;
  }

  stop(): void {
    this.stopped = true;
    for (const watch of [...this.watches.values()]) this.down(watch.endpoint);
  }

  private probe(watch: Watch): void {
    if (watch.stopped || watch.probing) return;
    watch.probing = true;
    const probe = this.options.probe ?? grpcHealth;
    void probe(watch.endpoint, this.options.timeoutMs)
      .catch(() => false)
      .then((ok) => {
        watch.probing = false;
        if (watch.stopped) return;
        this.record(watch, ok);
        this.schedule(watch);
      });
  }

  private record(watch: Watch, ok: boolean): void {
    if (ok !== watch.reachable) {
      const level = ok ? 'info' : 'warn';
      this.options.logger[level](
        { grpcAddress: watch.endpoint.grpcAddress },
        ok ? 'agentctl reachable' : 'agentctl unreachable',
      );
    }
    watch.reachable = ok;
    watch.failures = ok ? 0 : watch.failures + 1;
  }

  private schedule(watch: Watch): void {
    const { intervalMs, backoff } = this.options;
    const delayMs = watch.reachable
      ? intervalMs
      : Math.min(backoff.maxDelayMs, backoff.baseMs * 2 ** Math.min(watch.failures - 1, 16));
    watch.timer?.cancel();
    watch.timer = (this.options.startTimer ?? realTimer)(() => {
      watch.timer = undefined;
      this.probe(watch);
    }, delayMs);
  }
}

/** What GET /api/agentctl and /readyz say of one executor. */
export interface ExecutorReach {
  kind: string;
  /** The process or endpoint is there (local: the child lives; remote: it answers; docker: a container runs). */
  running: boolean;
  /** Every agentctl it has up answers health; local and remote need theirs up, docker may have none. */
  reachable: boolean;
}

/**
 * Whether an executor's agentctls decide the backend's readiness (GET /readyz). A shared agentctl
 * (local, remote) serves every session: without it the backend serves none. A per-session one (docker,
 * kubernetes) is its session's alone: one that stops answering fails that session, and taking every
 * replica holding it out of service would fail all the others.
 */
export function gatesReadiness(kind: string): boolean {
  return !isPerSessionKind(kind);
}

/** The registry's view of one executor, as reachability refines it. */
export function reachOf(
  backend: { kind: string; status(): { running: boolean }; endpoints(): AgentctlEndpoint[] },
  isReachable: (grpcAddress: string) => boolean,
): ExecutorReach {
  const endpoints = backend.endpoints();
  const reachable =
    endpoints.length === 0 ? isPerSessionKind(backend.kind) : endpoints.every((e) => isReachable(e.grpcAddress));
  // A remote agentctl is someone else's process: "running" can only mean that it answers.
  const running = backend.kind === 'remote' ? reachable : backend.status().running;
  return { kind: backend.kind, running, reachable };
}
