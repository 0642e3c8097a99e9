// Runs one scripted turn against small seams (updates out, tools, cancellation, exit), so it is
// testable without a transport.
import type { RequestPermissionRequest, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { ToolOutcome } from './mcp-link';
import { type PromptContext, renderArguments, renderReply, UnknownVariableError } from './reply-template';
import { currentGitBranch } from './work-dir';
import type { AgentMode, Step, TurnBody } from './script';

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
  /** The tool names from the agent's last listing (none without an MCP server). */
  knownTools(): readonly string[];
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
  /**
   * ACP session/request_permission to the client: the chosen option id, or 'cancelled'. Absent: a
   * request_permission step fails the turn.
   */
  requestPermission?: (request: Omit<RequestPermissionRequest, 'sessionId'>) => Promise<string>;
}

/**
 * What outlives a turn within one ACP session: variables set by `capture` steps and the result text of
 * the latest call_tool (what `capture` with `from: last_tool_result` reads). session/load starts afresh.
 */
export interface SessionMemory {
  readonly vars: Map<string, string>;
  lastToolResult: string | undefined;
}

export function createSessionMemory(): SessionMemory {
  return { vars: new Map(), lastToolResult: undefined };
}

/** The prompt being answered plus the session's memory. */
export interface TurnContext {
  prompt: string;
  ordinal: number;
  /** The ACP systemPrompt of the session; '' when none was given. */
  systemPrompt: string;
  /** The session's mode: in `auto` the agent does not ask its client for permission. */
  mode: AgentMode;
  memory: SessionMemory;
}

/** Runs the steps in order; rejects with TurnFailure when a step cannot be done. */
export async function runTurn(turn: TurnBody, context: TurnContext, io: TurnIo): Promise<StopReason> {
  for (const step of turn.steps) {
    if (io.isCancelled()) return 'cancelled';
    const outcome = await runStep(step, context, io);
    if (outcome === 'cancelled') return 'cancelled';
  }
  return io.isCancelled() ? 'cancelled' : turn.stop_reason;
}

async function runStep(step: Step, context: TurnContext, io: TurnIo): Promise<'cancelled' | 'done'> {
  switch (step.kind) {
    case 'reply':
      await reply(
        render('reply', () => renderReply(step.text, templateContext(context))),
        io,
      );
      return 'done';
    case 'list_tools':
      await reply(describeTools(await listTools(io)), io);
      return 'done';
    case 'known_tools':
      await reply(describeTools(io.knownTools()).replace('Tools I can see', 'Tools I know'), io);
      return 'done';
    case 'call_tool': {
      const args = render(`call_tool ${step.name}`, () => renderArguments(step.arguments, templateContext(context)));
      context.memory.lastToolResult = await callTool(step.name, args, io);
      return 'done';
    }
    case 'capture':
      capture(step, context);
      return 'done';
    case 'wait_for_cancel':
      await io.cancelled;
      return 'cancelled';
    case 'wait_for_file':
      return waitForFile(
        render('wait_for_file', () => renderReply(step.path, templateContext(context))),
        io,
      );
    case 'exit':
      return io.exit(step.code);
    case 'request_permission':
      context.memory.vars.set(step.var, await requestPermission(step, context, io));
      return 'done';
  }
}

/** Announces the tool call (pending), asks the client, and returns the chosen option id or 'cancelled'. */
async function requestPermission(
  step: Extract<Step, { kind: 'request_permission' }>,
  context: TurnContext,
  io: TurnIo,
): Promise<string> {
  const ask = io.requestPermission;
  if (ask === undefined) throw new TurnFailure('request_permission failed: this client cannot be asked');
  const toolCallId = io.nextToolCallId();
  const title = render('request_permission', () => renderReply(step.title, templateContext(context)));
  const kind = step.toolKind;
  if (context.mode === 'auto') {
    // Acts without asking: what an agent left in its own default mode does.
    await io.update({ sessionUpdate: 'tool_call', toolCallId, title, kind, status: 'completed' });
    return 'auto';
  }
  await io.update({ sessionUpdate: 'tool_call', toolCallId, title, kind, status: 'pending' });
  try {
    return await ask({
      toolCall: { toolCallId, title, kind, status: 'pending' },
      options: step.options.map((o) => ({ optionId: o.option_id, name: o.name, kind: o.kind })),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new TurnFailure(`request_permission failed: ${message}`, { cause: err });
  }
}

function templateContext(context: TurnContext): PromptContext {
  const { prompt, ordinal, systemPrompt, mode, memory } = context;
  return { prompt, ordinal, systemPrompt, mode, vars: memory.vars, cwd: process.cwd(), gitBranch: currentGitBranch };
}

/** Placeholders are filled in as the step runs; an unset variable fails the turn, naming the step. */
function render<T>(where: string, fill: () => T): T {
  try {
    return fill();
  } catch (err) {
    if (err instanceof UnknownVariableError) throw new TurnFailure(`${where}: ${err.message}`, { cause: err });
    throw err;
  }
}

/** How much of the searched text a failed capture quotes: enough to see why, never a whole conversation. */
const QUOTE_CHARS = 300;

/** Stores group 1 of the step's pattern, matched against the prompt or the latest tool result, as a variable. */
function capture(step: Extract<Step, { kind: 'capture' }>, context: TurnContext): void {
  const regex = `/${step.pattern}/${step.flags}`;
  const text = step.from === 'prompt' ? context.prompt : context.memory.lastToolResult;
  if (text === undefined) {
    throw new TurnFailure(
      `capture ${step.name} failed: ${regex} reads the last tool result, but no call_tool step has run in this session`,
    );
  }
  const value = new RegExp(step.pattern, step.flags).exec(text)?.[1];
  if (value === undefined) {
    const where = step.from === 'prompt' ? 'the prompt' : 'the last tool result';
    const quoted = JSON.stringify(text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}...` : text);
    throw new TurnFailure(`capture ${step.name} failed: ${regex} did not match ${where} (group 1): ${quoted}`);
  }
  context.memory.vars.set(step.name, value);
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

/** Runs one call and reports it; resolves the result text (also for a failed call). */
async function callTool(name: string, args: Record<string, unknown>, io: TurnIo): Promise<string> {
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
  return outcome.text;
}
