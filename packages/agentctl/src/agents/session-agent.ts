import type { AgentRuntimeState, LaunchConfig, TurnRecord } from '@kandev/protocol';
import type { AgentToolView } from './agent-tool-view';
import type { PromptLedger } from './prompt-ledger';

/** A session's agent as the registry drives it (AgentRunner; tests use fakes). */
export interface SessionAgent {
  /** Spawns the process and starts the ACP handshake in the background; a no-op once stopped. */
  start(): void;
  /** Accepts a prompt id the session has not seen; failed_precondition when the agent cannot take it. */
  prompt(promptId: string, text: string): TurnRecord;
  /** Cancels the running turn, if any. */
  cancel(): { cancelled: boolean; promptId: string | null };
  /** An expected stop: the whole process group, then agent_exited(expected). Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL to the process group, synchronously (agentctl is exiting). */
  kill(): void;
  state(): AgentRuntimeState;
}

/**
 * Builds the agent of a session from its launch config (with the real MCP token), not yet started.
 * `tools`: the session's tools and who listed them.
 */
export interface AgentLauncher {
  create(
    config: LaunchConfig & { agent: NonNullable<LaunchConfig['agent']> },
    prompts: PromptLedger,
    tools: AgentToolView,
  ): SessionAgent;
}
