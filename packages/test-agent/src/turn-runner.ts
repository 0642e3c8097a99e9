// Runs one scripted turn against small seams (updates out, tools, cancellation, exit), so it is
// testable without a transport.
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { ToolOutcome } from './mcp-link';
import { type PromptContext, renderReply } from './reply-template';
import type { Step, TurnBody } from './script';

/** A step that cannot do what the script asked (list_tools without a reachable MCP server): the turn fails. */
export class TurnFailure extends Error {
  constructor(message: string, opts?: ErrorOptions) {
    super(message, opts);
    this.name = 'TurnFailure';
  }
}

export interface TurnIo {
  /** Sends one session/update for this session. */
  update(update: SessionUpdate): Promise<void>;
  /** Calls a tool through the session's MCP server; rejects when there is none or the call faults. */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** Every tool name the session's MCP server lists; rejects when there is none or the call faults. */
  listTools(): Promise<string[]>;
  /**
   * Resolves once the file exists (a relative path against the session's cwd); rejects when it cannot
   * be watched. `signal` aborts the wait when the turn is cancelled.
   */
  waitForFile(path: string, signal: AbortSignal): Promise<void>;
  /** Resolves when session/cancel arrives for this turn. */
  cancelled: Promise<void>;
  isCancelled(): boolean;
  /** Ends the process (the `exit` step); never returns. */
  exit(code: number): never;
  /** A fresh, deterministic tool call id. */
  nextToolCallId(): string;
}

/** Runs the steps in order; rejects with TurnFailure when a step cannot be done. */
export async function runTurn(turn: TurnBody, context: PromptContext, io: TurnIo): Promise<StopReason> {
  for (const step of turn.steps) {
    if (io.isCancelled()) return 'cancelled';
    const outcome = await runStep(step, context, io);
    if (outcome === 'cancelled') return 'cancelled';
  }
  return io.isCancelled() ? 'cancelled' : turn.stop_reason;
}

async function runStep(step: Step, context: PromptContext, io: TurnIo): Promise<'cancelled' | 'done'> {
  switch (step.kind) {
    case 'reply':
      await reply(renderReply(step.text, context), io);
      return 'done';
    case 'list_tools':
      await reply(describeTools(await listTools(io)), io);
      return 'done';
    case 'call_tool':
      await callTool(step.name, step.arguments, io);
      return 'done';
    case 'wait_for_cancel':
      await io.cancelled;
      return 'cancelled';
    case 'wait_for_file':
      return waitForFile(renderReply(step.path, context), io);
    case 'exit':
      return io.exit(step.code);
  }
}

/** Blocks until the file exists ('done') or the turn is cancelled ('cancelled'), whichever is first. */
async function waitForFile(path: string, io: TurnIo): Promise<'cancelled' | 'done'> {
  const abort = new AbortController();
  const cancelled = io.cancelled.then(() => 'cancelled' as const);
  try {
    const appeared = io.waitForFile(path, abort.signal).then(
      () => 'done' as const,
      (err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        throw new TurnFailure(`wait_for_file ${path} failed: ${message}`, { cause: err });
      },
    );
    // Once cancelled, a late failure of the abandoned wait must not become an unhandled rejection.
    appeared.catch(() => undefined);
    return await Promise.race([appeared, cancelled]);
  } finally {
    abort.abort();
  }
}

function reply(text: string, io: TurnIo): Promise<void> {
  return io.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

async function listTools(io: TurnIo): Promise<string[]> {
  try {
    return await io.listTools();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new TurnFailure(`list_tools failed: ${message}`, { cause: err });
  }
}

/** The reply of a list_tools step: sorted, so the same tool set always reads the same. */
export function describeTools(names: readonly string[]): string {
  const sorted = [...names].sort();
  return `Tools I can see (${sorted.length}): ${sorted.length === 0 ? 'none' : sorted.join(', ')}`;
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
