// Test-only: an ACP connection whose answers the test controls.
import {
  AcpConnectionClosedError,
  type AcpConnection,
  type AcpEvents,
  type AgentCapabilities,
  type AgentUpdate,
  type LoadSessionParams,
  type NewSessionParams,
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

export class FakeAcpConnection implements AcpConnection {
  capabilities: AgentCapabilities = { loadSession: true, mcpHttp: true };
  /** Method names in call order. */
  readonly calls: string[] = [];
  newSessionParams: NewSessionParams | undefined;
  loadSessionParams: LoadSessionParams | undefined;
  readonly prompts: { acpSessionId: string; text: string; answer: Deferred<{ stopReason: string }> }[] = [];
  readonly cancels: string[] = [];
  /** Set to hold a handshake step open (the test resolves it) or make it fail. */
  initializeAnswer: Deferred<AgentCapabilities> | undefined;
  loadAnswer: Deferred<void> | undefined;
  newSessionError: Error | undefined;
  private readonly closedSignal = deferred<void>();
  readonly closed = this.closedSignal.promise;
  private open = true;

  constructor(readonly events: AcpEvents) {}

  initialize(): Promise<AgentCapabilities> {
    this.calls.push('initialize');
    return this.initializeAnswer?.promise ?? Promise.resolve(this.capabilities);
  }

  newSession(params: NewSessionParams): Promise<{ sessionId: string }> {
    this.calls.push('session/new');
    this.newSessionParams = params;
    return this.newSessionError ? Promise.reject(this.newSessionError) : Promise.resolve({ sessionId: 'acp-1' });
  }

  loadSession(params: LoadSessionParams): Promise<void> {
    this.calls.push('session/load');
    this.loadSessionParams = params;
    return this.loadAnswer?.promise ?? Promise.resolve();
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
