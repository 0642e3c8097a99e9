// The fake agentctl's agents, one per session, scripted by the test: CreateSession starts one (ready at
// once unless autoStart is off), a turn runs until the test ends it, and the agent may crash. Each step
// goes out as the session events the real agentctl emits. Turns are remembered per prompt id across
// restarts, so a duplicate prompt is never delivered twice.
import {
  type AgentRuntimeState,
  type LaunchConfig,
  NO_AGENT,
  type SessionEventBody,
  type TurnRecord,
} from '@kandev/protocol';
import { HELD_AT, type SessionEventBuffer } from './session-event-buffer';

type BodyOf<K extends SessionEventBody['kind']> = Extract<SessionEventBody, { kind: K }>;

/** What a running turn streams (agentctl fills in the prompt id). */
export type TurnOutput =
  Omit<BodyOf<'agent_message'>, 'promptId'> | Omit<BodyOf<'tool_call'>, 'promptId'> | Omit<BodyOf<'plan'>, 'promptId'>;

/** What the handshake set up in an agent (agent_started and GetSession report it). */
export type AgentSetup = Pick<AgentRuntimeState, 'modeId' | 'systemPromptDelivery' | 'mcpConnected'>;

/** How the test ends a running turn (see FakeAgentctl.finishTurn). */
export interface TurnFinish {
  stopReason?: string;
  text?: string;
  toolCall?: { id: string; title: string };
  warning?: string;
}

export class ScriptedAgents {
  readonly agents = new Map<string, AgentRuntimeState>();
  /** An agent becomes ready as soon as CreateSession started it (false: call startAgent()). */
  autoStart = true;
  /** What the handshake of the agents CreateSession starts from now on sets up. */
  agentSetup: AgentSetup = { modeId: null, systemPromptDelivery: 'spec_append', mcpConnected: true };
  /** Prompt ids an agent of the session has seen (across restarts): a duplicate is never delivered. */
  private readonly seen = new Map<string, Map<string, TurnRecord>>();
  private nextPid = 1000;
  private acpCount = 0;

  constructor(private readonly events: SessionEventBuffer) {}

  /** CreateSession took a new config: the session's agent (if any) stops, and `agent` starts. */
  launch(sessionId: string, agent: LaunchConfig['agent']): void {
    this.stopAgent(sessionId, 'restarted by CreateSession');
    if (agent === null) return;
    const resume = agent.resumeAcpSessionId;
    this.agents.set(sessionId, {
      ...NO_AGENT,
      status: 'starting',
      pid: this.nextPid++,
      acpSessionId: resume ?? `acp-${++this.acpCount}`,
      loaded: resume !== null,
      ...this.agentSetup,
    });
    if (this.autoStart) this.startAgent(sessionId);
  }

  /** StopSession: the session's agent stops and is forgotten (its seen prompt ids are not). */
  remove(sessionId: string): void {
    this.stopAgent(sessionId, 'stopped by StopSession');
    this.agents.delete(sessionId);
  }

  /** The turn an agent of the session ran for `promptId`, if any did. */
  seenTurn(sessionId: string, promptId: string): TurnRecord | undefined {
    return this.seen.get(sessionId)?.get(promptId);
  }

  /** Copies of every turn the session's agents ran, oldest first. */
  turnsOf(sessionId: string): TurnRecord[] {
    return [...(this.seen.get(sessionId)?.values() ?? [])].map((turn) => ({ ...turn }));
  }

  /** A prompt reached the (ready) agent: its turn runs from now on (the caller emits turn_started). */
  beginTurn(sessionId: string, agent: AgentRuntimeState, promptId: string): TurnRecord {
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
    return turn;
  }

  /** agent_started: the handshake finished (automatic unless autoStart is off). */
  startAgent(sessionId: string): void {
    const agent = this.requireAgent(sessionId);
    this.agents.set(sessionId, { ...agent, status: 'ready' });
    this.events.emit(sessionId, {
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
    for (const output of outputs) this.events.emit(sessionId, { ...output, promptId });
  }

  /** agentctl noticed something about the session's agent (no MCP connection, say). */
  notice(sessionId: string, notice: Omit<BodyOf<'agent_notice'>, 'kind'>): void {
    this.events.emit(sessionId, { kind: 'agent_notice', ...notice });
  }

  /**
   * The running turn ends: optional agent text (a whole run, as an older agentctl sent it) and tool
   * call first, then turn_ended (completed, with `warning` as the turn's error when given).
   */
  finishTurn(sessionId: string, options: TurnFinish = {}): string {
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
      this.events.emit(sessionId, { kind: 'tool_call', ...base, status: 'in_progress', inputJson: '{"path":"a.ts"}' });
      this.events.emit(sessionId, { kind: 'tool_call', ...base, status: 'completed', inputJson: '', outputText: 'ok' });
    }
    if (options.text !== undefined) {
      this.events.emit(sessionId, { kind: 'agent_message', promptId, segment: 0, text: options.text });
    }
    const stopReason = options.stopReason ?? 'end_turn';
    const turn = this.endTurn(sessionId, { status: 'completed', stopReason, warning: options.warning });
    this.agents.set(sessionId, { ...agent, status: 'ready', currentPromptId: null });
    this.events.emit(sessionId, { kind: 'turn_ended', turn });
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
      this.events.emit(sessionId, {
        kind: 'turn_ended',
        turn: this.endTurn(sessionId, { status: 'failed', error: reason }),
      });
    }
    this.agents.set(sessionId, { ...agent, status: 'exited', currentPromptId: null, exitReason: reason, pid: null });
    const exitCode = options.exitCode ?? 1;
    const exited = () =>
      this.events.emit(sessionId, { kind: 'agent_exited', exitCode, signal: null, reason, expected: false });
    if (options.holdExitEvent !== true) exited();
    return exited;
  }

  /** The session's agent pid while its process runs (null: none or exited). */
  agentPid(sessionId: string): number | null {
    const agent = this.agents.get(sessionId);
    return agent === undefined || agent.status === 'exited' ? null : agent.pid;
  }

  private stopAgent(sessionId: string, reason: string): void {
    const agent = this.agents.get(sessionId);
    if (agent === undefined || agent.status === 'exited') return;
    if (agent.currentPromptId !== null) {
      this.events.emit(sessionId, {
        kind: 'turn_ended',
        turn: this.endTurn(sessionId, { status: 'failed', error: reason }),
      });
    }
    this.agents.set(sessionId, { ...agent, status: 'exited', currentPromptId: null, exitReason: reason, pid: null });
    this.events.emit(sessionId, { kind: 'agent_exited', exitCode: null, signal: 'SIGTERM', reason, expected: true });
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

  private requireAgent(sessionId: string): AgentRuntimeState {
    const agent = this.agents.get(sessionId);
    if (agent === undefined) throw new Error(`no agent in ${sessionId}`);
    return agent;
  }
}
