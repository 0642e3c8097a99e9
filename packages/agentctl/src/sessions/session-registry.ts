import {
  AppError,
  decideRevision,
  type LaunchConfig,
  type Provider,
  providerSetRevision,
  type RuntimeSessionState,
  sha256Hex,
  toolContextFromConfig,
  type TurnRecord,
  type UpdateOutcome,
} from '@kandev/protocol';
import type { AgentLauncher, SessionAgent } from '../agents/session-agent';
import type { Logger } from '../logger';
import type { AgentctlCensus, AgentctlMetrics } from '../metrics/agentctl-metrics';
import type { ToolSetCache } from '../tools/tool-set-cache';
import { agentEnvDigest, configFingerprint } from './config-fingerprint';
import { decideCreate } from './revision-decision';
import { RuntimeSession, type SessionRevision } from './runtime-session';
import type { SessionConnection } from './session-connection';

export interface ProviderUpdate {
  readonly sessionId: string;
  /** Normalised (unknown providers already dropped). */
  readonly providers: readonly Provider[];
  readonly revision: number;
}

export interface ProviderUpdateResult {
  readonly outcome: UpdateOutcome;
  readonly toolsChanged: boolean;
  readonly session: RuntimeSessionState;
}

export interface PromptRequest {
  readonly sessionId: string;
  readonly promptId: string;
  readonly text: string;
}

export interface PromptResult {
  readonly turn: TurnRecord;
  /** The prompt id was seen before: nothing was delivered, this is its record. */
  readonly duplicate: boolean;
}

export interface SessionRegistryDeps {
  readonly toolSets: ToolSetCache;
  /** Builds the agent of a session whose config has an agent command. */
  readonly agents: AgentLauncher;
  readonly log: Logger;
  readonly now?: () => Date;
  /** Times each list_changed delivery (or counts its failure). */
  readonly metrics?: Pick<AgentctlMetrics, 'listChangedDelivered' | 'listChangedFailed'>;
}

/**
 * agentctl's runtime registry: live sessions keyed by session id. Decisions and swaps happen
 * synchronously (no await between reading and replacing a session), so concurrent calls serialise;
 * notifications and connection closes run after the swap.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, RuntimeSession>();
  private readonly now: () => Date;

  constructor(private readonly deps: SessionRegistryDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** CreateSession: create, idempotent replay, or replace with a higher revision (resume). */
  async create(config: LaunchConfig): Promise<RuntimeSessionState> {
    const revision = this.revisionFor(config, sha256Hex(config.mcpToken));
    const existing = this.sessions.get(config.sessionId);
    const incoming = { revision: config.revision, content: () => configFingerprint(config, revision) };
    const current = existing && { revision: existing.config.revision, content: () => existing.fingerprint };
    const decision = decideCreate(config.sessionId, current, incoming);
    if (existing === undefined) {
      const session = new RuntimeSession(revision, this.now());
      this.sessions.set(config.sessionId, session);
      session.agent = this.createAgent(config, session);
      session.agent?.start();
      this.deps.log.info(this.describe(session), 'session created');
      return session.state();
    }
    if (decision === 'replace') {
      const applied = existing.apply(revision, this.now());
      // Swapped synchronously with the config: a prompt from now on goes to the new agent (queued
      // until it is up), and a not-yet-started agent that is replaced again never starts.
      const previous = existing.agent;
      existing.agent = this.createAgent(config, existing);
      this.deps.log.info({ ...this.describe(existing), ...applied }, 'session config replaced');
      const handOver = this.handOver(existing, previous, existing.agent);
      if (applied.tokenChanged) await this.close(existing.detachConnections(), existing.sessionId);
      else if (applied.toolsChanged) await this.notify(existing);
      await handOver;
    }
    return existing.state();
  }

  /**
   * RestoreSession: registers an MCP-only session this agentctl does not hold (it restarted) from the
   * backend's stored config and the token's hash, so its clients' URL and token work again. A session
   * already held is returned as it is (a repeated restore, or a backend that misjudged the loss).
   */
  restore(restore: { config: LaunchConfig; mcpTokenHash: string }): RuntimeSessionState {
    const existing = this.sessions.get(restore.config.sessionId);
    if (existing !== undefined) return existing.state();
    const session = new RuntimeSession(this.revisionFor(restore.config, restore.mcpTokenHash), this.now());
    this.sessions.set(restore.config.sessionId, session);
    this.deps.log.info(this.describe(session), 'session restored');
    return session.state();
  }

  /** Prompt: idempotent per prompt id for the whole session; only a new id reaches the agent. */
  prompt(request: PromptRequest): PromptResult {
    const session = this.require(request.sessionId);
    const known = session.prompts.get(request.promptId);
    if (known !== undefined) return { turn: known, duplicate: true };
    if (session.agent === undefined) {
      throw new AppError('failed_precondition', `session ${request.sessionId} has no agent (MCP only)`);
    }
    return { turn: session.agent.prompt(request.promptId, request.text), duplicate: false };
  }

  /** CancelTurn: idempotent; cancelled false when no turn is running. */
  cancelTurn(sessionId: string): { cancelled: boolean; promptId: string | null } {
    const agent = this.require(sessionId).agent;
    return agent === undefined ? { cancelled: false, promptId: null } : agent.cancel();
  }

  /** A provider update: replace the set (keeping everything else) when the revision moves forward. */
  async updateProviders(update: ProviderUpdate): Promise<ProviderUpdateResult> {
    const session = this.require(update.sessionId);
    const config = session.config;
    const outcome = decideRevision(update.sessionId, providerSetRevision(config), providerSetRevision(update));
    if (outcome !== 'applied') return { outcome, toolsChanged: false, session: session.state() };
    const next: LaunchConfig = { ...config, providers: [...update.providers], revision: update.revision };
    const applied = session.apply(this.revisionFor(next, session.mcpTokenHash, session.envDigest), this.now());
    this.deps.log.info({ ...this.describe(session), toolsChanged: applied.toolsChanged }, 'providers updated');
    if (applied.toolsChanged) await this.notify(session);
    return { outcome, toolsChanged: applied.toolsChanged, session: session.state() };
  }

  get(sessionId: string): RuntimeSessionState {
    return this.require(sessionId).state();
  }

  list(): RuntimeSessionState[] {
    return [...this.sessions.values()]
      .map((session) => session.state())
      .sort((a, b) => (a.config.sessionId < b.config.sessionId ? -1 : 1));
  }

  /**
   * One page of list(): the sessions whose id sorts after `after`, at most `limit` of them (0: all);
   * `more` when others follow. Only the page's sessions are described.
   */
  page(after: string, limit: number): { sessions: RuntimeSessionState[]; more: boolean } {
    const ids = [...this.sessions.keys()].filter((id) => id > after).sort();
    const picked = limit > 0 ? ids.slice(0, limit) : ids;
    return { sessions: picked.map((id) => this.require(id).state()), more: picked.length < ids.length };
  }

  /** Live session for the MCP endpoint, or undefined. */
  find(sessionId: string): RuntimeSession | undefined {
    return this.sessions.get(sessionId);
  }

  /** StopSession: idempotent; false when the session is unknown. Closes its MCP connections. */
  async stop(sessionId: string): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (session === undefined) return false;
    this.sessions.delete(sessionId);
    await this.stopAgent(session);
    await this.close(session.detachConnections(), sessionId);
    this.deps.log.info({ sessionId }, 'session stopped');
    return true;
  }

  /** Shutdown: closes every MCP connection of every session. */
  async closeAllConnections(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.close(s.detachConnections(), s.sessionId)));
  }

  /** Shutdown: stops every agent (each whole process group); the sessions stay until exit. */
  async stopAllAgents(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.stopAgent(s)));
  }

  /** agentctl is exiting now (forced): SIGKILL every agent's process group, synchronously. */
  killAllAgents(): void {
    for (const session of this.sessions.values()) session.agent?.kill();
  }

  private createAgent(config: LaunchConfig, session: RuntimeSession): SessionAgent | undefined {
    return config.agent === null
      ? undefined
      : this.deps.agents.create({ ...config, agent: config.agent }, session.prompts, session);
  }

  /**
   * Resume: the old agent stops (an expected exit) before the new one spawns, so two processes never
   * share the ACP session; hand-overs of one session run one after the other.
   */
  private handOver(
    session: RuntimeSession,
    previous: SessionAgent | undefined,
    next: SessionAgent | undefined,
  ): Promise<void> {
    const stopped = previous?.stop();
    const transition = Promise.all([session.agentTransition, stopped]).then(() => next?.start());
    session.agentTransition = transition.catch(() => undefined);
    return transition;
  }

  private async stopAgent(session: RuntimeSession): Promise<void> {
    await Promise.all([session.agentTransition, session.agent?.stop()]);
  }

  /** `envDigest` is carried over when `config` is a held (redacted) config with new providers. */
  private revisionFor(config: LaunchConfig, mcpTokenHash: string, envDigest = agentEnvDigest(config)): SessionRevision {
    return {
      config,
      mcpTokenHash,
      envDigest,
      toolSet: this.deps.toolSets.resolve(toolContextFromConfig(config)),
    };
  }

  private require(sessionId: string): RuntimeSession {
    const session = this.sessions.get(sessionId);
    if (session === undefined) throw new AppError('not_found', `no session ${sessionId} in agentctl`);
    return session;
  }

  private describe(session: RuntimeSession): Record<string, unknown> {
    return { sessionId: session.sessionId, revision: session.config.revision, tools: session.toolSet.key };
  }

  /** What the metrics gauges read on each scrape: O(sessions), off every hot path. */
  census(): AgentctlCensus {
    const agents: Record<string, number> = {};
    const toolCounts: number[] = [];
    for (const session of this.sessions.values()) {
      toolCounts.push(session.toolSet.names.length);
      const status = session.agent?.state().status;
      if (status !== undefined && status !== 'none') agents[status] = (agents[status] ?? 0) + 1;
    }
    return { sessions: this.sessions.size, agents, toolCounts };
  }

  private async notify(session: RuntimeSession): Promise<void> {
    const metrics = this.deps.metrics;
    const changed = process.hrtime.bigint();
    const delivered = (c: SessionConnection) =>
      c.notifyToolsChanged().then(
        () => metrics?.listChangedDelivered(changed),
        (err: unknown) => {
          metrics?.listChangedFailed();
          throw err;
        },
      );
    const results = await Promise.allSettled(session.connectionList().map(delivered));
    for (const result of results) {
      if (result.status === 'rejected') {
        this.deps.log.warn({ sessionId: session.sessionId, err: result.reason }, 'list_changed not delivered');
      }
    }
  }

  private async close(connections: SessionConnection[], sessionId: string): Promise<void> {
    const results = await Promise.allSettled(connections.map((c) => c.close()));
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed > 0) this.deps.log.warn({ sessionId, failed }, 'some MCP connections did not close cleanly');
  }
}
