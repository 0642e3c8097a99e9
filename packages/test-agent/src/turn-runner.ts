// Runs one scripted turn against small seams (updates out, tools, cancellation, exit), so it is
// testable without a transport.
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { ToolOutcome } from './mcp-link';
import type { Step, TurnBody } from './script';

export interface TurnIo {
  /** Sends one session/update for this session. */
  update(update: SessionUpdate): Promise<void>;
  /** Calls a tool through the session's MCP server; rejects when there is none or the call faults. */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** Resolves when session/cancel arrives for this turn. */
  cancelled: Promise<void>;
  isCancelled(): boolean;
  /** Ends the process (the `exit` step); never returns. */
  exit(code: number): never;
  /** A fresh, deterministic tool call id. */
  nextToolCallId(): string;
}

export async function runTurn(turn: TurnBody, io: TurnIo): Promise<StopReason> {
  for (const step of turn.steps) {
    if (io.isCancelled()) return 'cancelled';
    const outcome = await runStep(step, io);
    if (outcome === 'cancelled') return 'cancelled';
  }
  return io.isCancelled() ? 'cancelled' : turn.stop_reason;
}

async function runStep(step: Step, io: TurnIo): Promise<'cancelled' | 'done'> {
  switch (step.kind) {
    case 'reply':
      await io.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: step.text } });
      return 'done';
    case 'call_tool':
      await callTool(step.name, step.arguments, io);
      return 'done';
    case 'wait_for_cancel':
      await io.cancelled;
      return 'cancelled';
    case 'exit':
      return io.exit(step.code);
  }
}

async function callTool(name: string, args: Record<string, unknown>, io: TurnIo): Promise<void> {
  const toolCallId = io.nextToolCallId();
  await io.update({
    sessionUpdate: 'tool_call',
    toolCallId,
    title: name,
    kind: 'other',
    status: 'in_progress',
    rawInput: { name, arguments: args },
  });
  let outcome: ToolOutcome;
  try {
    outcome = await io.callTool(name, args);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    outcome = { isError: true, text: `${name} could not be called: ${message}`, raw: { error: message } };
  }
  await io.update({
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: outcome.isError ? 'failed' : 'completed',
    content: [{ type: 'content', content: { type: 'text', text: outcome.text } }],
    rawOutput: outcome.raw,
  });
}
