// Test-only: a session agent and launcher that record what the registry asks of them.
import { type AgentRuntimeState, AppError, type LaunchConfig, NO_AGENT, type TurnRecord } from '@kandev/protocol';
import type { PromptLedger } from '../agents/prompt-ledger';
import type { AgentLauncher, SessionAgent } from '../agents/session-agent';

export class FakeSessionAgent implements SessionAgent {
  /** What happened to this agent, in order: 'start', 'stop', 'stopped', 'kill', 'prompt:<id>', 'cancel'. */
  readonly log: string[] = [];
  /** Set to hold stop() open until the test calls finishStop(). */
  holdStop = false;
  private release: () => void = () => undefined;
  private stopping: Promise<void> | undefined;

  constructor(
    readonly config: LaunchConfig,
    readonly prompts: PromptLedger,
  ) {}

  /** As the SessionAgent contract says: a no-op once stopped. */
  start(): void {
    if (this.stopping === undefined) this.log.push('start');
  }

  prompt(promptId: string, _text: string): TurnRecord {
    if (this.stopping) throw new AppError('failed_precondition', 'stopped');
    this.log.push(`prompt:${promptId}`);
    const record: TurnRecord = {
      promptId,
      status: 'running',
      stopReason: null,
      error: null,
      startedAt: 't',
      endedAt: null,
    };
    this.prompts.put(record);
    return record;
  }

  cancel(): { cancelled: boolean; promptId: string | null } {
    this.log.push('cancel');
    return { cancelled: true, promptId: 'p-running' };
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.log.push('stop');
      if (this.holdStop) await new Promise<void>((resolve) => (this.release = resolve));
      this.log.push('stopped');
    })();
    return this.stopping;
  }

  finishStop(): void {
    this.release();
  }

  kill(): void {
    this.log.push('kill');
  }

  state(): AgentRuntimeState {
    return { ...NO_AGENT, status: 'ready', pid: 100 + Number(this.config.revision) };
  }
}

export class FakeAgentLauncher implements AgentLauncher {
  readonly created: FakeSessionAgent[] = [];

  create(config: LaunchConfig, prompts: PromptLedger): FakeSessionAgent {
    const agent = new FakeSessionAgent(config, prompts);
    this.created.push(agent);
    return agent;
  }
}
