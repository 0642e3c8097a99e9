// agentctl in miniature for in-process backend tests: the configs it holds, every call it got, the
// revision rule of the real one (the protocol's decideRevision, for launch configs and provider sets),
// an injectable failure for refresh/repair paths (scripted-failures.ts), and a scripted agent per
// session (scripted-agents.ts: CreateSession starts it, Prompt runs one turn at a time and is
// idempotent per prompt id, the test streams its output, ends turns or crashes the agent) whose session
// events go, in order, to whoever attached (session-event-buffer.ts: buffered while nobody is).
import {
  type AgentRuntimeState,
  AppError,
  canonicalJson,
  decideRevision,
  isAppError,
  isBlankText,
  isSessionId,
  type LaunchConfig,
  NO_AGENT,
  type Provider,
  providerSetRevision,
  type Revisioned,
  type RuntimeSessionState,
  selectTools,
  sha256Hex,
  type SessionEvent,
  toolContextFromConfig,
} from '@kandev/protocol';
import type {
  AgentctlApi,
  PromptAccepted,
  ProviderUpdate,
  ProviderUpdateOutcome,
  SentProviderUpdates,
  ProvidersHeld,
  TurnCancellation,
} from '../../runtime/agentctl/agentctl-client';
import { PROVIDER_UPDATES_PER_MESSAGE } from '../../runtime/agentctl/provider-updates';
import { type AgentSetup, ScriptedAgents, type TurnFinish, type TurnOutput } from './scripted-agents';
import { type Method, ScriptedFailures } from './scripted-failures';
import { HELD_AT, SessionEventBuffer } from './session-event-buffer';

/** One Prompt call as the fake answered it. */
export interface PromptCall {
  sessionId: string;
  promptId: string;
  outcome: 'delivered' | 'duplicate' | 'refused' | 'rejected' | 'failed';
}

/** A launch config's revision; its content is the whole config with the token by its hash (as agentctl). */
function configRevision(config: LaunchConfig, mcpTokenHash: string): Revisioned {
  return { revision: config.revision, content: () => canonicalJson({ ...config, mcpToken: mcpTokenHash }) };
}

export class FakeAgentctl implements AgentctlApi {
  readonly held = new Map<string, LaunchConfig>();
  /** The SHA-256 of each held session's MCP token (held configs keep no token). */
  private readonly tokenHashes = new Map<string, string>();
  private readonly sessionEvents = new SessionEventBuffer();
  private readonly failures = new ScriptedFailures();
  private readonly scripted = new ScriptedAgents(this.sessionEvents);
  readonly agents: Map<string, AgentRuntimeState> = this.scripted.agents;
  /** Every call, in order, one line each. */
  readonly calls: string[] = this.failures.calls;
  readonly promptCalls: PromptCall[] = [];
  /** The number of updates in each provider-update call, in order. */
  readonly providerCallSizes: number[] = [];
  /** Prompts that reached an agent (a new id accepted), in order: at most once per id. */
  readonly delivered: { sessionId: string; promptId: string; text: string }[] = [];
  /** Every event emitted, in order. */
  readonly emitted: SessionEvent[] = this.sessionEvents.emitted;
  /** Called right after a prompt reached an agent, before Prompt answers (e.g. to end the turn at once). */
  onDelivered: ((sessionId: string, promptId: string) => void) | undefined;

  /** When set, every call records itself and fails with this error. */
  get failure(): Error | undefined {
    return this.failures.failure;
  }
  set failure(error: Error | undefined) {
    this.failures.failure = error;
  }

  /** An agent becomes ready as soon as CreateSession started it (false: call startAgent()). */
  get autoStart(): boolean {
    return this.scripted.autoStart;
  }
  set autoStart(on: boolean) {
    this.scripted.autoStart = on;
  }

  /** What the handshake of the agents CreateSession starts from now on sets up. */
  get agentSetup(): AgentSetup {
    return this.scripted.agentSetup;
  }
  set agentSetup(setup: AgentSetup) {
    this.scripted.agentSetup = setup;
  }

  /** The backend attaches (the latest wins): events buffered meanwhile are flushed to it, in order. */
  attach(sink: (event: SessionEvent) => void): void {
    this.sessionEvents.attach(sink);
  }

  /** The backend went away: events are kept until the next attach. */
  detach(): void {
    this.sessionEvents.detach();
  }

  /** The next call of `method` fails with `error` (after taking effect, with afterApplying). */
  failNext(method: Method, error: Error, options: { afterApplying?: boolean } = {}): void {
    this.failures.failNext(method, error, options);
  }

  /** Drops the failures scheduled with failNext that no call took yet. */
  clearScheduled(): void {
    this.failures.clearScheduled();
  }

  createSession(config: LaunchConfig): Promise<RuntimeSessionState> {
    return this.failures.answer('CreateSession', `CreateSession ${config.sessionId} ${config.revision}`, () => {
      // As the real agentctl: only a UUID registers (the backend mints them with randomUUID).
      if (!isSessionId(config.sessionId)) throw new AppError('invalid_argument', 'session_id must be a UUID');
      const current = this.held.get(config.sessionId);
      const tokenHash = sha256Hex(config.mcpToken);
      if (current !== undefined) {
        const held = configRevision(current, this.tokenHashes.get(config.sessionId) ?? '');
        const outcome = decideRevision(config.sessionId, held, configRevision(config, tokenHash));
        // As agentctl's CreateSession: an older config is refused, not ignored.
        if (outcome === 'stale') {
          throw new AppError('failed_precondition', `revision ${config.revision} is below ${current.revision}`);
        }
        if (outcome === 'unchanged') return this.stateOf(config.sessionId);
      }
      this.held.set(config.sessionId, { ...config, mcpToken: '' });
      this.tokenHashes.set(config.sessionId, tokenHash);
      this.scripted.launch(config.sessionId, config.agent);
      return this.stateOf(config.sessionId);
    });
  }

  restoreSession(config: LaunchConfig, mcpTokenHash: string): Promise<RuntimeSessionState> {
    return this.failures.answer(undefined, `RestoreSession ${config.sessionId} ${config.revision}`, () => {
      if (!this.held.has(config.sessionId)) {
        this.held.set(config.sessionId, { ...config, mcpToken: '' });
        this.tokenHashes.set(config.sessionId, mcpTokenHash);
      }
      return this.stateOf(config.sessionId);
    });
  }

  getSession(sessionId: string): Promise<RuntimeSessionState> {
    return this.failures.answer('GetSession', `GetSession ${sessionId}`, () => this.stateOf(sessionId));
  }

  /** On its stream at once: the fake's calls start when made. */
  sendProviderUpdates(updates: readonly ProviderUpdate[]): Promise<SentProviderUpdates> {
    this.providerCallSizes.push(updates.length);
    if (updates.length > PROVIDER_UPDATES_PER_MESSAGE) {
      return Promise.reject(new AppError('internal', `${updates.length} updates in one call`));
    }
    return Promise.resolve({ answer: this.updateProvidersBatch(updates) });
  }

  /** As the real agentctl: each update applied in order; a refused one is its result, the rest go on. */
  async updateProvidersBatch(updates: readonly ProviderUpdate[]): Promise<ProviderUpdateOutcome[]> {
    const outcomes: ProviderUpdateOutcome[] = [];
    for (const { sessionId, providers, revision } of updates) {
      try {
        outcomes.push({ ok: true, result: await this.updateProviders(sessionId, providers, revision) });
      } catch (error) {
        // `failure` stands for the whole call failing (agentctl unreachable or slow).
        if (!isAppError(error) || error === this.failure) throw error;
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  /**
   * One update as the real agentctl applies it (revision rule included), recorded as a
   * `ProviderUpdate <session> <providers> <revision>` call; the batch calls it per update.
   */
  private updateProviders(sessionId: string, providers: readonly Provider[], revision: number): Promise<ProvidersHeld> {
    return this.failures.answer(undefined, `ProviderUpdate ${sessionId} ${providers.join('+')} ${revision}`, () => {
      const config = this.require(sessionId);
      const outcome = decideRevision(
        sessionId,
        providerSetRevision(config),
        providerSetRevision({ revision, providers }),
      );
      const before = this.stateOf(sessionId).toolNames;
      if (outcome === 'applied') this.held.set(sessionId, { ...config, providers: [...providers], revision });
      const now = this.stateOf(sessionId);
      // As agentctl: true exactly when the effective tool list changed.
      const toolsChanged = now.toolNames.join(',') !== before.join(',');
      return {
        outcome,
        toolsChanged,
        revision: now.config.revision,
        providers: now.config.providers,
        toolNames: now.toolNames,
      };
    });
  }

  stopSession(sessionId: string): Promise<boolean> {
    return this.failures.answer('StopSession', `StopSession ${sessionId}`, () => {
      this.scripted.remove(sessionId);
      this.tokenHashes.delete(sessionId);
      return this.held.delete(sessionId);
    });
  }

  listSessions(): Promise<RuntimeSessionState[]> {
    return this.failures.answer(undefined, 'ListSessions', () => [...this.held.keys()].map((id) => this.stateOf(id)));
  }

  prompt(sessionId: string, promptId: string, text: string): Promise<PromptAccepted> {
    const record = (outcome: PromptCall['outcome']) => this.promptCalls.push({ sessionId, promptId, outcome });
    return this.failures.answer(
      'Prompt',
      `Prompt ${sessionId} ${promptId}`,
      () => {
        // As the real agentctl's request parser (the same rule): blank text is refused for good.
        if (isBlankText(text)) {
          record('rejected');
          throw new AppError('invalid_argument', 'text must not be blank');
        }
        this.require(sessionId);
        const seen = this.scripted.seenTurn(sessionId, promptId);
        if (seen !== undefined) {
          record('duplicate');
          return { turn: { ...seen }, duplicate: true };
        }
        const agent = this.agents.get(sessionId);
        const refuse = (why: string) => {
          record('refused');
          return new AppError('failed_precondition', why);
        };
        if (agent === undefined) throw refuse('the session has no agent');
        if (agent.status === 'exited') throw refuse('the agent exited');
        if (agent.status === 'prompting') throw refuse('another turn is running');
        const turn = this.scripted.beginTurn(sessionId, agent, promptId);
        this.delivered.push({ sessionId, promptId, text });
        record('delivered');
        this.sessionEvents.emit(sessionId, { kind: 'turn_started', promptId });
        this.onDelivered?.(sessionId, promptId);
        return { turn: { ...turn }, duplicate: false };
      },
      () => record('failed'),
    );
  }

  cancelTurn(sessionId: string): Promise<TurnCancellation> {
    return this.failures.answer('CancelTurn', `CancelTurn ${sessionId}`, () => {
      const promptId = this.agents.get(sessionId)?.currentPromptId ?? null;
      if (promptId === null) return { cancelled: false, promptId: null };
      this.scripted.finishTurn(sessionId, { stopReason: 'cancelled' });
      return { cancelled: true, promptId };
    });
  }

  // ---- the scripted agent, driven by the test (scripted-agents.ts) ----

  /** agent_started: the handshake finished (automatic unless autoStart is off). */
  startAgent(sessionId: string): void {
    this.scripted.startAgent(sessionId);
  }

  /** The running turn streams output, in order: text chunks, tool call notices, plan updates. */
  output(sessionId: string, ...outputs: TurnOutput[]): void {
    this.scripted.output(sessionId, ...outputs);
  }

  /** agentctl noticed something about the session's agent (no MCP connection, say). */
  notice(sessionId: string, notice: Parameters<ScriptedAgents['notice']>[1]): void {
    this.scripted.notice(sessionId, notice);
  }

  /** The running turn ends: optional text and tool call first, then turn_ended (completed). */
  finishTurn(sessionId: string, options: TurnFinish = {}): string {
    return this.scripted.finishTurn(sessionId, options);
  }

  /** The agent process dies: its turn fails, then agent_exited (held until called, with holdExitEvent). */
  crashAgent(sessionId: string, options: Parameters<ScriptedAgents['crashAgent']>[1] = {}): () => void {
    return this.scripted.crashAgent(sessionId, options);
  }

  /** The session's agent pid while its process runs (null: none or exited). */
  agentPid(sessionId: string): number | null {
    return this.scripted.agentPid(sessionId);
  }

  /** The provider updates received, one `ProviderUpdate …` line each. */
  pushes(): string[] {
    return this.calls.filter((call) => call.startsWith('ProviderUpdate '));
  }

  private stateOf(sessionId: string): RuntimeSessionState {
    const agent = this.agents.get(sessionId);
    return {
      config: this.require(sessionId),
      // As agentctl: the catalogue's tools for the held config (tools.changed is computed from them).
      toolNames: selectTools(toolContextFromConfig(this.require(sessionId))).map((tool) => tool.name),
      connectionCount: 0,
      mcpPath: '/',
      createdAt: HELD_AT,
      updatedAt: HELD_AT,
      agent: agent === undefined ? NO_AGENT : { ...agent, turns: this.scripted.turnsOf(sessionId) },
    };
  }

  private require(sessionId: string): LaunchConfig {
    const config = this.held.get(sessionId);
    if (config === undefined) throw new AppError('not_found', `no session ${sessionId} in agentctl`);
    return config;
  }
}
