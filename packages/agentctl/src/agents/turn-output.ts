import type { FileDiff, SessionEventBody, ToolCallNoticeStatus } from '@kandev/protocol';
import type { AgentUpdate, ToolCallUpdate } from './acp-connection';
import { bounded } from './tool-call-update';

// Turns one prompt turn's stream of ACP updates into the events agentctl sends. Message text streams:
// it is held only until the runner flushes (once per batch of updates that arrived together) and goes
// out as agent_message events that append to the turn's current run of text (its segment). A tool call
// or a plan ends the run, so text, tool calls and plans keep their order; each tool call update becomes
// a notice with all that is known of the call.

export type TurnOutputEvent = Extract<SessionEventBody, { kind: 'agent_message' | 'tool_call' | 'plan' }>;

/** Text is sent in pieces of at most this many characters (bounded gRPC messages). */
export const MESSAGE_FLUSH_AT = 64 * 1024;

interface ToolCallState {
  title: string;
  status: ToolCallNoticeStatus;
  toolKind: string;
  inputJson: string;
  outputText: string;
  diffs: FileDiff[];
  mcpTool: { server: string; tool: string } | undefined;
}

/** What the turn knows of a tool call, for a permission request about it. */
export type KnownToolCall = Readonly<Pick<ToolCallState, 'title' | 'toolKind' | 'mcpTool'>>;

export class TurnOutput {
  private pending = '';
  private segment = 1;
  private segmentHasText = false;
  private readonly calls = new Map<string, ToolCallState>();

  constructor(readonly promptId: string) {}

  apply(update: AgentUpdate): TurnOutputEvent[] {
    switch (update.kind) {
      case 'message_chunk':
        this.pending += update.text;
        this.segmentHasText ||= update.text.length > 0;
        return this.pending.length >= MESSAGE_FLUSH_AT ? this.flush() : [];
      case 'tool_call':
        return [...this.endRun(), this.noticeFor(update)];
      case 'plan':
        return [...this.endRun(), { kind: 'plan', promptId: this.promptId, entries: [...update.entries] }];
    }
  }

  /** The text gathered since the last flush (nothing when there is none). */
  flush(): TurnOutputEvent[] {
    const events: TurnOutputEvent[] = [];
    for (let start = 0; start < this.pending.length; start += MESSAGE_FLUSH_AT) {
      const text = this.pending.slice(start, start + MESSAGE_FLUSH_AT);
      events.push({ kind: 'agent_message', promptId: this.promptId, segment: this.segment, text });
    }
    this.pending = '';
    return events;
  }

  toolCall(toolCallId: string): KnownToolCall | undefined {
    return this.calls.get(toolCallId);
  }

  /** Flushes the current run of text; the next text starts a new run. */
  private endRun(): TurnOutputEvent[] {
    const events = this.flush();
    if (this.segmentHasText) {
      this.segment += 1;
      this.segmentHasText = false;
    }
    return events;
  }

  private noticeFor(update: ToolCallUpdate): TurnOutputEvent {
    const before = this.calls.get(update.toolCallId);
    const output = update.outputText ?? before?.outputText ?? '';
    const state: ToolCallState = {
      // Agents often name a call generically first ("Terminal") and precisely later ("touch a.txt").
      title: update.title !== undefined && update.title.length > 0 ? update.title : (before?.title ?? ''),
      status: update.status ?? before?.status ?? 'pending',
      toolKind: update.toolKind ?? before?.toolKind ?? '',
      inputJson: update.inputJson ?? before?.inputJson ?? '',
      outputText: update.outputAppend === undefined ? output : bounded(output + update.outputAppend),
      diffs: update.diffs === undefined ? (before?.diffs ?? []) : [...update.diffs],
      mcpTool: before?.mcpTool ?? update.mcpTool,
    };
    this.calls.set(update.toolCallId, state);
    const { title, status, toolKind, inputJson, outputText, diffs } = state;
    return {
      kind: 'tool_call',
      promptId: this.promptId,
      toolCallId: update.toolCallId,
      ...{ title, status, toolKind, inputJson, outputText, diffs },
    };
  }
}
