// Test-only: an ACP connection whose answers the test controls.
import {
  AcpConnectionClosedError,
  type AcpConnection,
  type AcpEvents,
  type AgentCapabilities,
  type AgentUpdate,
  type NewSessionResult,
  type SessionModes,
  type SessionSetupParams,
} from '../agents/acp-connection';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (err: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** What an agent with every capability agentctl uses advertises. */
export const FULL_CAPABILITIES: AgentCapabilities = {
  loadSession: true,
  mcpHttp: true,
  systemPrompt: true,
  closeSession: true,
  resumeSession: true,
  extensions: [],
};

export class FakeAcpConnection implements AcpConnection {
  capabilities: AgentCapabilities = FULL_CAPABILITIES;
  /** The modes session/new, load and resume answer (none by default). */
  modes: SessionModes | null = null;
  /** Method names in call order (set_mode with its mode id: `session/set_mode:<id>`). */
  readonly calls: string[] = [];
  newSessionParams: SessionSetupParams | undefined;
  loadSessionParams: (SessionSetupParams & { sessionId: string }) | undefined;
  resumeSessionParams: (SessionSetupParams & { sessionId: string }) | undefined;
  readonly prompts: { acpSessionId: string; text: string; answer: Deferred<{ stopReason: string }> }[] = [];
  readonly cancels: string[] = [];
  /** Set to hold a handshake step open (the test resolves it) or make it fail. */
  initializeAnswer: Deferred<AgentCapabilities> | undefined;
  loadAnswer: Deferred<void> | undefined;
  newSessionError: Error | undefined;
  loadError: Error | undefined;
  setModeError: Error | undefined;
  private readonly closedSignal = deferred<void>();
  readonly closed = this.closedSignal.promise;
  private open = true;

  constructor(readonly events: AcpEvents) {}

  initialize(): Promise<AgentCapabilities> {
    this.calls.push('initialize');
    return this.initializeAnswer?.promise ?? Promise.resolve(this.capabilities);
  }

  newSession(params: SessionSetupParams): Promise<NewSessionResult> {
    this.calls.push('session/new');
    this.newSessionParams = params;
    if (this.newSessionError) return Promise.reject(this.newSessionError);
    return Promise.resolve({ sessionId: 'acp-1', modes: this.modes });
  }

  async loadSession(sessionId: string, params: SessionSetupParams): Promise<SessionModes | null> {
    this.calls.push('session/load');
    this.loadSessionParams = { sessionId, ...params };
    await this.loadAnswer?.promise;
    if (this.loadError) throw this.loadError;
    return this.modes;
  }

  resumeSession(sessionId: string, params: SessionSetupParams): Promise<SessionModes | null> {
    this.calls.push('session/resume');
    this.resumeSessionParams = { sessionId, ...params };
    return Promise.resolve(this.modes);
  }

  closeSession(): Promise<void> {
    this.calls.push('session/close');
    return Promise.resolve();
  }

  setMode(_sessionId: string, modeId: string): Promise<void> {
    this.calls.push(`session/set_mode:${modeId}`);
    if (this.setModeError) return Promise.reject(this.setModeError);
    if (this.modes !== null) this.modes = { ...this.modes, currentModeId: modeId };
    return Promise.resolve();
  }

  prompt(acpSessionId: string, text: string): Promise<{ stopReason: string }> {
    this.calls.push('session/prompt');
    const answer = deferred<{ stopReason: string }>();
    this.prompts.push({ acpSessionId, text, answer });
    return answer.promise;
  }

  cancel(acpSessionId: string): Promise<void> {
    this.cancels.push(acpSessionId);
    return Promise.resolve();
  }

  /** The agent sends a session/update. */
  update(update: AgentUpdate, acpSessionId = 'acp-1'): void {
    this.events.onUpdate(acpSessionId, update);
  }

  /** Answers the latest session/prompt. */
  endPrompt(stopReason = 'end_turn'): void {
    this.lastPrompt().answer.resolve({ stopReason });
  }

  failPrompt(message: string): void {
    this.lastPrompt().answer.reject(new Error(message));
  }

  /** The agent's stdout ends: pending requests fail as closed. */
  closeFromAgent(): void {
    for (const p of this.prompts) p.answer.reject(new AcpConnectionClosedError('session/prompt'));
    this.close();
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.closedSignal.resolve();
  }

  static deferred = deferred;

  private lastPrompt() {
    const last = this.prompts.at(-1);
    if (last === undefined) throw new Error('no session/prompt was sent');
    return last;
  }
}
