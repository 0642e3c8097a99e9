import {
  AppError,
  type LaunchConfig,
  type Provider,
  type RuntimeSessionState,
  sha256Hex,
  type UpdateOutcome,
} from '@kandev/protocol';
import type { Logger } from '../logger';
import { toolContextFromConfig } from '../tools/tool-context';
import type { ToolSetCache } from '../tools/tool-set-cache';
import { configFingerprint } from './config-fingerprint';
import { decideCreate, decideProviderUpdate } from './revision-decision';
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

export interface SessionRegistryDeps {
  readonly toolSets: ToolSetCache;
  readonly log: Logger;
  readonly now?: () => Date;
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
    const incoming = { revision: config.revision, fingerprint: configFingerprint(config, revision.mcpTokenHash) };
    const current = existing && { revision: existing.config.revision, fingerprint: existing.fingerprint };
    const decision = decideCreate(config.sessionId, current, incoming);
    if (existing === undefined) {
      const session = new RuntimeSession(revision, this.now());
      this.sessions.set(config.sessionId, session);
      this.deps.log.info(this.describe(session), 'session created');
      return session.state();
    }
    if (decision === 'replace') {
      const applied = existing.apply(revision, this.now());
      this.deps.log.info({ ...this.describe(existing), ...applied }, 'session config replaced');
      if (applied.tokenChanged) await this.close(existing.detachConnections(), existing.sessionId);
      else if (applied.toolsChanged) await this.notify(existing);
    }
    return existing.state();
  }

  /** UpdateProviders: replace the provider set (keeping everything else) when the revision moves forward. */
  async updateProviders(update: ProviderUpdate): Promise<ProviderUpdateResult> {
    const session = this.require(update.sessionId);
    const config = session.config;
    const outcome = decideProviderUpdate(update.sessionId, config, update);
    if (outcome !== 'applied') return { outcome, toolsChanged: false, session: session.state() };
    const next: LaunchConfig = { ...config, providers: [...update.providers], revision: update.revision };
    const applied = session.apply(this.revisionFor(next, session.mcpTokenHash), this.now());
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

  /** Live session for the MCP endpoint, or undefined. */
  find(sessionId: string): RuntimeSession | undefined {
    return this.sessions.get(sessionId);
  }

  /** StopSession: idempotent; false when the session is unknown. Closes its MCP connections. */
  async stop(sessionId: string): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (session === undefined) return false;
    this.sessions.delete(sessionId);
    await this.close(session.detachConnections(), sessionId);
    this.deps.log.info({ sessionId }, 'session stopped');
    return true;
  }

  /** Shutdown: closes every MCP connection of every session. */
  async closeAllConnections(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.close(s.detachConnections(), s.sessionId)));
  }

  private revisionFor(config: LaunchConfig, mcpTokenHash: string): SessionRevision {
    return { config, mcpTokenHash, toolSet: this.deps.toolSets.resolve(toolContextFromConfig(config)) };
  }

  private require(sessionId: string): RuntimeSession {
    const session = this.sessions.get(sessionId);
    if (session === undefined) throw new AppError('not_found', `no session ${sessionId} in agentctl`);
    return session;
  }

  private describe(session: RuntimeSession): Record<string, unknown> {
    return { sessionId: session.sessionId, revision: session.config.revision, tools: session.toolSet.key };
  }

  private async notify(session: RuntimeSession): Promise<void> {
    const results = await Promise.allSettled(session.connectionList().map((c) => c.notifyToolsChanged()));
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
