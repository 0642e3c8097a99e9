import {
  type LaunchConfig,
  mcpPathFor,
  NO_AGENT,
  redactLaunchConfig,
  type RuntimeSessionState,
  secretMatchesHash,
} from '@kandev/protocol';
import type { AgentToolView } from '../agents/agent-tool-view';
import { PromptLedger } from '../agents/prompt-ledger';
import type { SessionAgent } from '../agents/session-agent';
import { type ToolSet, toolListChanged } from '../tools/tool-set-cache';
import { configFingerprint } from './config-fingerprint';
import type { SessionConnection } from './session-connection';

/** A config revision as agentctl holds it: secrets blanked, their digests kept, tool set resolved. */
export interface SessionRevision {
  readonly config: LaunchConfig;
  readonly mcpTokenHash: string;
  /** Digest of the agent's environment values (see agentEnvDigest). */
  readonly envDigest: string;
  readonly toolSet: ToolSet;
}

export interface AppliedRevision {
  readonly toolsChanged: boolean;
  readonly tokenChanged: boolean;
}

/**
 * A live session in agentctl's registry: its current revision and its MCP client connections. All
 * swaps are synchronous, so every connection sees either the old or the new tool set, never a mix.
 */
export class RuntimeSession implements AgentToolView {
  private current: SessionRevision;
  /** configFingerprint of `current`, computed when first asked (only a replayed CreateSession asks). */
  private currentFingerprint: string | undefined;
  private readonly connections = new Map<string, SessionConnection>();
  private readonly createdAt: Date;
  private updatedAt: Date;
  /** Prompt ids this session accepted, across agent restarts (resume): never delivered twice. */
  readonly prompts = new PromptLedger();
  /** The session's agent process (none for an MCP-only session). */
  agent: SessionAgent | undefined;
  /** Settles when the latest agent hand-over (old agent stopped, new one spawned) is done. */
  agentTransition: Promise<void> = Promise.resolve();
  /** tools/list requests answered so far, and the tool set key each connection listed last. */
  private listings = 0;
  private readonly listedKeys = new Map<string, string>();
  /** Called after every listing and connection change (waits of the agent runner). */
  private readonly listingWatchers = new Set<() => void>();

  constructor(revision: SessionRevision, now: Date) {
    this.current = { ...revision, config: redactLaunchConfig(revision.config) };
    this.createdAt = now;
    this.updatedAt = now;
  }

  get sessionId(): string {
    return this.current.config.sessionId;
  }

  get taskId(): string {
    return this.current.config.taskId;
  }

  get config(): LaunchConfig {
    return this.current.config;
  }

  get toolSet(): ToolSet {
    return this.current.toolSet;
  }

  get fingerprint(): string {
    this.currentFingerprint ??= configFingerprint(this.current.config, this.current);
    return this.currentFingerprint;
  }

  /** Constant-time check of a presented MCP bearer against this session's token hash. */
  acceptsToken(token: string): boolean {
    return secretMatchesHash(token, this.current.mcpTokenHash);
  }

  get envDigest(): string {
    return this.current.envDigest;
  }

  /** SHA-256 of the session's MCP token (the token itself is never kept). */
  get mcpTokenHash(): string {
    return this.current.mcpTokenHash;
  }

  /** Replaces the revision in one assignment and reports what changed. */
  apply(next: SessionRevision, now: Date): AppliedRevision {
    const before = this.current;
    this.current = { ...next, config: redactLaunchConfig(next.config) };
    this.currentFingerprint = undefined;
    this.updatedAt = now;
    return {
      toolsChanged: toolListChanged(before.toolSet, next.toolSet),
      tokenChanged: before.mcpTokenHash !== next.mcpTokenHash,
    };
  }

  addConnection(connection: SessionConnection): void {
    this.connections.set(connection.id, connection);
  }

  removeConnection(id: string): void {
    this.connections.delete(id);
    this.listedKeys.delete(id);
    this.notifyWatchers();
  }

  /** A connection of this session was answered a tools/list (of the current tool set). */
  recordListing(connectionId: string): void {
    this.listings += 1;
    this.listedKeys.set(connectionId, this.current.toolSet.key);
    this.notifyWatchers();
  }

  toolNames(): readonly string[] {
    return this.current.toolSet.names;
  }

  listingCount(): number {
    return this.listings;
  }

  listedSince(mark: number, timeoutMs: number): Promise<boolean> {
    return this.waitFor(() => this.listings > mark, timeoutMs);
  }

  listedCurrent(timeoutMs: number): Promise<boolean> {
    const key = () => this.current.toolSet.key;
    return this.waitFor(() => [...this.listedKeys.values()].every((listed) => listed === key()), timeoutMs);
  }

  private waitFor(holds: () => boolean, timeoutMs: number): Promise<boolean> {
    if (holds()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const settle = (value: boolean) => {
        clearTimeout(timer);
        this.listingWatchers.delete(check);
        resolve(value);
      };
      const check = () => {
        if (holds()) settle(true);
      };
      const timer = setTimeout(() => settle(false), timeoutMs);
      timer.unref();
      this.listingWatchers.add(check);
    });
  }

  private notifyWatchers(): void {
    for (const watcher of [...this.listingWatchers]) watcher();
  }

  connection(id: string): SessionConnection | undefined {
    return this.connections.get(id);
  }

  connectionList(): SessionConnection[] {
    return [...this.connections.values()];
  }

  /** Removes and returns every connection (to close them). */
  detachConnections(): SessionConnection[] {
    const all = this.connectionList();
    this.connections.clear();
    this.listedKeys.clear();
    this.notifyWatchers();
    return all;
  }

  state(): RuntimeSessionState {
    return {
      config: this.current.config,
      toolNames: [...this.current.toolSet.names],
      connectionCount: this.connections.size,
      mcpPath: mcpPathFor(this.sessionId),
      createdAt: this.createdAt.toISOString(),
      updatedAt: this.updatedAt.toISOString(),
      agent: this.agent?.state() ?? NO_AGENT,
    };
  }
}
