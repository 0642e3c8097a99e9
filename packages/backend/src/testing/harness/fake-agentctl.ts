// agentctl in miniature for in-process backend tests: the configs it holds, every call it got, the
// revision rule of the real one (the protocol's decideRevision, for launch configs and provider sets),
// an injectable failure for refresh/repair paths, and a scripted agent per session (CreateSession
// starts it, Prompt runs one turn at a time and is idempotent per prompt id, the test streams its
// output, ends turns or crashes the agent) whose session events go, in order, to whoever attached
// (buffered while nobody is).
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
  type SessionEventBody,
  toolContextFromConfig,
  type TurnRecord,
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
import type { AgentctlPort } from '../../composition/backend-ports';
import { AgentctlEventHub } from '../../runtime/agentctl/agentctl-event-hub';
import type { AgentctlEndpoint, ExecutorBackend } from '../../runtime/agentctl/executor';
import { ExecutorRegistry } from '../../runtime/executors/executor-registry';

const HELD_AT = '2026-11-30T10:00:00.000Z';

type BodyOf<K extends SessionEventBody['kind']> = Extract<SessionEventBody, { kind: K }>;

/** What a running turn streams (agentctl fills in the prompt id). */
export type TurnOutput =
  Omit<BodyOf<'agent_message'>, 'promptId'> | Omit<BodyOf<'tool_call'>, 'promptId'> | Omit<BodyOf<'plan'>, 'promptId'>;

/** What the handshake set up in an agent (agent_started and GetSession report it). */
export type AgentSetup = Pick<AgentRuntimeState, 'modeId' | 'systemPromptDelivery' | 'mcpConnected'>;

export const ENDPOINT: AgentctlEndpoint = {
  grpcAddress: '127.0.0.1:1',
  mcpBaseUrl: 'http://127.0.0.1:2',
  controlToken: 'x',
};

/** The provider-set recomputation: task_repositories joined with repositories. */
export const PROVIDER_SET_QUERY = /from [`"]task_repositories[`"] as [`"]tr[`"] inner join [`"]repositories[`"]/i;

/**
 * The 'local' executor of an in-process backend: its one agentctl is always up at ENDPOINT, where
 * `agentctl` answers every call. Without one, no agentctl is up at all (a launch fails, a
 * per-session call is `unavailable`).
 */
export function fakeAgentctlPort(agentctl?: FakeAgentctl): AgentctlPort {
  const up = agentctl === undefined ? [] : [ENDPOINT];
  const local: ExecutorBackend = {
    kind: 'local',
    acquire: () =>
      up[0] === undefined ? Promise.reject(new Error('no agentctl in this test')) : Promise.resolve(up[0]),
    endpointAt: (grpcAddress) => up.find((endpoint) => endpoint.grpcAddress === grpcAddress),
    endpoints: () => [...up],
    release: () => Promise.resolve(),
    recover: () => Promise.resolve(),
    status: () => ({
      running: up.length > 0,
      pid: up.length > 0 ? 1 : null,
      grpcAddress: up[0]?.grpcAddress ?? null,
      mcpBaseUrl: up[0]?.mcpBaseUrl ?? null,
    }),
    stop: () => Promise.resolve(),
  };
  const clients = {
    clientFor: () => {
      if (agentctl === undefined) throw new Error('no agentctl in this test');
      return agentctl;
    },
  };
  return {
    executors: new ExecutorRegistry(new Map([['local', local]]), 'local'),
    clients,
    events: new AgentctlEventHub(),
  };
}

/** One Prompt call as the fake answered it. */
export interface PromptCall {
  sessionId: string;
  promptId: string;
  outcome: 'delivered' | 'duplicate' | 'refused' | 'rejected' | 'failed';
}

type Method = 'CreateSession' | 'GetSession' | 'Prompt' | 'CancelTurn' | 'StopSession';

interface ScheduledFailure {
  method: Method;
  error: Error;
  /** The call takes effect, then fails (the reply was lost: an ambiguous failure). */
  afterApplying: boolean;
}

/** A launch config's revision; its content is the whole config with the token by its hash (as agentctl). */
function configRevision(config: LaunchConfig, mcpTokenHash: string): Revisioned {
  return { revision: config.revision, content: () => canonicalJson({ ...config, mcpToken: mcpTokenHash }) };
}

export class FakeAgentctl implements AgentctlApi {
  readonly held = new Map<string, LaunchConfig>();
  /** The SHA-256 of each held session's MCP token (held configs keep no token). */
  private readonly tokenHashes = new Map<string, string>();
  readonly agents = new Map<string, AgentRuntimeState>();
  readonly calls: string[] = [];
  readonly promptCalls: PromptCall[] = [];
  /** Prompts that reached an agent (a new id accepted), in order: at most once per id. */
  readonly delivered: { sessionId: string; promptId: string; text: string }[] = [];
  /** Every event emitted, in order. */
  readonly emitted: SessionEvent[] = [];
  /** When set, every call records itself and fails with this error. */
  failure: Error | undefined;
  /** An agent becomes ready as soon as CreateSession started it (false: call startAgent()). */
  autoStart = true;
  /** What the handshake of the agents CreateSession starts from now on sets up. */
  agentSetup: AgentSetup = { modeId: null, systemPromptDelivery: 'spec_append', mcpConnected: true };
  /** Called right after a prompt reached an agent, before Prompt answers (e.g. to end the turn at once). */
  onDelivered: ((sessionId: string, promptId: string) => void) | undefined;
  private readonly scheduled: ScheduledFailure[] = [];
  /** Prompt ids an agent of the session has seen (across restarts): a duplicate is never delivered. */
  private readonly seen = new Map<string, Map<string, TurnRecord>>();
  private sink: ((event: SessionEvent) => void) | undefined;
  private readonly buffered: SessionEvent[] = [];
  private seq = 0;
  private nextPid = 1000;
  private acpCount = 0;

  /** The backend attaches (the latest wins): events buffered meanwhile are flushed to it, in order. */
  attach(sink: (event: SessionEvent) => void): void {
    this.sink = sink;
    for (const event of this.buffered.splice(0)) sink(event);
  }

  /** The backend went away: events are kept until the next attach. */
  detach(): void {
    this.sink = undefined;
  }

  /** The next call of `method` fails with `error` (after taking effect, with afterApplying). */
  failNext(method: Method, error: Error, options: { afterApplying?: boolean } = {}): void {
    this.scheduled.push({ method, error, afterApplying: options.afterApplying ?? false });
  }

  /** Drops the failures scheduled with failNext that no call took yet. */
  clearScheduled(): void {
    this.scheduled.splice(0);
  }

  createSession(config: LaunchConfig): Promise<RuntimeSessionState> {
    return this.answer('CreateSession', `CreateSession ${config.sessionId} ${config.revision}`, () => {
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
      this.stopAgent(config.sessionId, 'restarted by CreateSession');
      if (config.agent !== null) {
        const resume = config.agent.resumeAcpSessionId;
        this.agents.set(config.sessionId, {
          ...NO_AGENT,
          status: 'starting',
          pid: this.nextPid++,
          acpSessionId: resume ?? `acp-${++this.acpCount}`,
          loaded: resume !== null,
          ...this.agentSetup,
        });
        if (this.autoStart) this.startAgent(config.sessionId);
      }
      return this.stateOf(config.sessionId);
    });
  }

  restoreSession(config: LaunchConfig, mcpTokenHash: string): Promise<RuntimeSessionState> {
    return this.answer(undefined, `RestoreSession ${config.sessionId} ${config.revision}`, () => {
      if (!this.held.has(config.sessionId)) {
        this.held.set(config.sessionId, { ...config, mcpToken: '' });
        this.tokenHashes.set(config.sessionId, mcpTokenHash);
      }
      return this.stateOf(config.sessionId);
    });
  }

  getSession(sessionId: string): Promise<RuntimeSessionState> {
    return this.answer('GetSession', `GetSession ${sessionId}`, () => this.stateOf(sessionId));
  }

  /** On its stream at once: the fake's calls start when made. */
  sendProviderUpdates(updates: readonly ProviderUpdate[]): Promise<SentProviderUpdates> {
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
    return this.answer(undefined, `ProviderUpdate ${sessionId} ${providers.join('+')} ${revision}`, () => {
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
    return this.answer('StopSession', `StopSession ${sessionId}`, () => {
      this.stopAgent(sessionId, 'stopped by StopSession');
      this.agents.delete(sessionId);
      this.tokenHashes.delete(sessionId);
      return this.held.delete(sessionId);
    });
  }

  listSessions(): Promise<RuntimeSessionState[]> {
    return this.answer(undefined, 'ListSessions', () => [...this.held.keys()].map((id) => this.stateOf(id)));
  }

  prompt(sessionId: string, promptId: string, text: string): Promise<PromptAccepted> {
    const record = (outcome: PromptCall['outcome']) => this.promptCalls.push({ sessionId, promptId, outcome });
    return this.answer(
      'Prompt',
      `Prompt ${sessionId} ${promptId}`,
      () => {
        // As the real agentctl's request parser (the same rule): blank text is refused for good.
        if (isBlankText(text)) {
          record('rejected');
          throw new AppError('invalid_argument', 'text must not be blank');
        }
        this.require(sessionId);
        const seen = this.seen.get(sessionId)?.get(promptId);
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
        const turn: TurnRecord = {
          promptId,
          status: 'running',
          stopReason: null,
          error: null,
          startedAt: HELD_AT,
          endedAt: null,
        };
        this.remember(sessionId, turn);
        this.agents.set(sessionId, { ...agent, status: 'prompting', currentPromptId: promptId });
        this.delivered.push({ sessionId, promptId, text });
        record('delivered');
        this.emit(sessionId, { kind: 'turn_started', promptId });
        this.onDelivered?.(sessionId, promptId);
        return { turn: { ...turn }, duplicate: false };
      },
      () => record('failed'),
    );
  }

  cancelTurn(sessionId: string): Promise<TurnCancellation> {
    return this.answer('CancelTurn', `CancelTurn ${sessionId}`, () => {
      const promptId = this.agents.get(sessionId)?.currentPromptId ?? null;
      if (promptId === null) return { cancelled: false, promptId: null };
      this.finishTurn(sessionId, { stopReason: 'cancelled' });
      return { cancelled: true, promptId };
    });
  }

  // ---- the scripted agent, driven by the test ----

  /** agent_started: the handshake finished (automatic unless autoStart is off). */
  startAgent(sessionId: string): void {
    const agent = this.requireAgent(sessionId);
    this.agents.set(sessionId, { ...agent, status: 'ready' });
    this.emit(sessionId, {
      kind: 'agent_started',
      pid: agent.pid ?? 0,
      acpSessionId: agent.acpSessionId ?? '',
      loaded: agent.loaded,
      modeId: agent.modeId,
      systemPromptDelivery: agent.systemPromptDelivery,
      mcpConnected: agent.mcpConnected,
    });
  }

  /** The running turn streams output, in order: text chunks, tool call notices, plan updates. */
  output(sessionId: string, ...outputs: TurnOutput[]): void {
    const promptId = this.requireAgent(sessionId).currentPromptId;
    if (promptId === null) throw new Error(`no turn runs in ${sessionId}`);
    for (const output of outputs) this.emit(sessionId, { ...output, promptId });
  }

  /** agentctl noticed something about the session's agent (no MCP connection, say). */
  notice(sessionId: string, notice: Omit<BodyOf<'agent_notice'>, 'kind'>): void {
    this.emit(sessionId, { kind: 'agent_notice', ...notice });
  }

  /**
   * The running turn ends: optional agent text (a whole run, as an older agentctl sent it) and tool
   * call first, then turn_ended (completed, with `warning` as the turn's error when given).
   */
  finishTurn(
    sessionId: string,
    options: { stopReason?: string; text?: string; toolCall?: { id: string; title: string }; warning?: string } = {},
  ): string {
    const agent = this.requireAgent(sessionId);
    const promptId = agent.currentPromptId;
    if (promptId === null) throw new Error(`no turn runs in ${sessionId}`);
    if (options.toolCall !== undefined) {
      const base = {
        promptId,
        toolCallId: options.toolCall.id,
        title: options.toolCall.title,
        toolKind: '',
        outputText: '',
        diffs: [],
      };
      this.emit(sessionId, { kind: 'tool_call', ...base, status: 'in_progress', inputJson: '{"path":"a.ts"}' });
      this.emit(sessionId, { kind: 'tool_call', ...base, status: 'completed', inputJson: '', outputText: 'ok' });
    }
    if (options.text !== undefined) {
      this.emit(sessionId, { kind: 'agent_message', promptId, segment: 0, text: options.text });
    }
    const stopReason = options.stopReason ?? 'end_turn';
    const turn = this.endTurn(sessionId, { status: 'completed', stopReason, warning: options.warning });
    this.agents.set(sessionId, { ...agent, status: 'ready', currentPromptId: null });
    this.emit(sessionId, { kind: 'turn_ended', turn });
    return promptId;
  }

  /**
   * The agent process dies: its turn fails (turn_ended), then agent_exited (unexpected). With
   * `holdExitEvent` the agent_exited event is emitted only when the returned function is called.
   */
  crashAgent(
    sessionId: string,
    options: { exitCode?: number; reason?: string; holdExitEvent?: boolean } = {},
  ): () => void {
    const agent = this.requireAgent(sessionId);
    const reason = options.reason ?? `exited with code ${options.exitCode ?? 1}`;
    if (agent.currentPromptId !== null) {
      this.emit(sessionId, { kind: 'turn_ended', turn: this.endTurn(sessionId, { status: 'failed', error: reason }) });
    }
    this.agents.set(sessionId, { ...agent, status: 'exited', currentPromptId: null, exitReason: reason, pid: null });
    const exitCode = options.exitCode ?? 1;
    const exited = () =>
      this.emit(sessionId, { kind: 'agent_exited', exitCode, signal: null, reason, expected: false });
    if (options.holdExitEvent !== true) exited();
    return exited;
  }

  /** The session's agent pid while its process runs (null: none or exited). */
  agentPid(sessionId: string): number | null {
    const agent = this.agents.get(sessionId);
    return agent === undefined || agent.status === 'exited' ? null : agent.pid;
  }

  /** The provider updates received, one `ProviderUpdate …` line each. */
  pushes(): string[] {
    return this.calls.filter((call) => call.startsWith('ProviderUpdate '));
  }

  private stopAgent(sessionId: string, reason: string): void {
    const agent = this.agents.get(sessionId);
    if (agent === undefined || agent.status === 'exited') return;
    if (agent.currentPromptId !== null) {
      this.emit(sessionId, { kind: 'turn_ended', turn: this.endTurn(sessionId, { status: 'failed', error: reason }) });
    }
    this.agents.set(sessionId, { ...agent, status: 'exited', currentPromptId: null, exitReason: reason, pid: null });
    this.emit(sessionId, { kind: 'agent_exited', exitCode: null, signal: 'SIGTERM', reason, expected: true });
  }

  private endTurn(
    sessionId: string,
    end: { status: 'completed'; stopReason: string; warning?: string } | { status: 'failed'; error: string },
  ): TurnRecord {
    const agent = this.requireAgent(sessionId);
    const promptId = agent.currentPromptId ?? '';
    const turn: TurnRecord = {
      promptId,
      status: end.status,
      stopReason: end.status === 'completed' ? end.stopReason : null,
      error: end.status === 'failed' ? end.error : (end.warning ?? null),
      startedAt: HELD_AT,
      endedAt: HELD_AT,
    };
    this.remember(sessionId, turn);
    this.agents.set(sessionId, { ...agent, currentPromptId: null });
    return turn;
  }

  private remember(sessionId: string, turn: TurnRecord): void {
    const seen = this.seen.get(sessionId) ?? new Map<string, TurnRecord>();
    seen.set(turn.promptId, turn);
    this.seen.set(sessionId, seen);
  }

  private emit(sessionId: string, body: SessionEventBody): void {
    const event: SessionEvent = { ...body, sessionId, seq: ++this.seq, occurredAt: HELD_AT };
    this.emitted.push(event);
    if (this.sink === undefined) this.buffered.push(event);
    else this.sink(event);
  }

  private stateOf(sessionId: string): RuntimeSessionState {
    const agent = this.agents.get(sessionId);
    const turns = [...(this.seen.get(sessionId)?.values() ?? [])].map((turn) => ({ ...turn }));
    return {
      config: this.require(sessionId),
      // As agentctl: the catalogue's tools for the held config (tools.changed is computed from them).
      toolNames: selectTools(toolContextFromConfig(this.require(sessionId))).map((tool) => tool.name),
      connectionCount: 0,
      mcpPath: '/',
      createdAt: HELD_AT,
      updatedAt: HELD_AT,
      agent: agent === undefined ? NO_AGENT : { ...agent, turns },
    };
  }

  private require(sessionId: string): LaunchConfig {
    const config = this.held.get(sessionId);
    if (config === undefined) throw new AppError('not_found', `no session ${sessionId} in agentctl`);
    return config;
  }

  private requireAgent(sessionId: string): AgentRuntimeState {
    const agent = this.agents.get(sessionId);
    if (agent === undefined) throw new Error(`no agent in ${sessionId}`);
    return agent;
  }

  /** Records the call; answers, or fails with the injected failure (before or after taking effect). */
  private answer<T>(method: Method | undefined, call: string, work: () => T, onFailure?: () => void): Promise<T> {
    this.calls.push(call);
    const index = this.scheduled.findIndex((failure) => failure.method === method);
    const scheduled = index < 0 ? undefined : this.scheduled.splice(index, 1)[0];
    try {
      if (this.failure !== undefined) throw this.failure;
      if (scheduled !== undefined && !scheduled.afterApplying) throw scheduled.error;
      const result = work();
      if (scheduled !== undefined) throw scheduled.error;
      return Promise.resolve(result);
    } catch (error) {
      if (error === this.failure || error === scheduled?.error) onFailure?.();
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
