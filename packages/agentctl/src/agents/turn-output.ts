import type { SessionEventBody, ToolCallNoticeStatus } from '@kandev/protocol';
import type { AgentUpdate } from './acp-connection';

// Turns one prompt turn's stream of ACP updates into the events agentctl sends: message chunks are
// joined into one AgentMessage, flushed when a tool call notice arrives (so text and tool calls keep
// their order) and before the turn ends; each tool call update becomes a notice with all that is known.

export type TurnOutputEvent = Extract<SessionEventBody, { kind: 'agent_message' | 'tool_call' }>;

/** Joined message text is sent in pieces of at most this many characters (bounded gRPC messages). */
export const MESSAGE_FLUSH_AT = 64 * 1024;

interface ToolCallState {
  title: string;
  status: ToolCallNoticeStatus;
  inputJson: string;
  outputText: string;
}

export class TurnOutput {
  private text = '';
  private readonly calls = new Map<string, ToolCallState>();

  constructor(readonly promptId: string) {}

  apply(update: AgentUpdate): TurnOutputEvent[] {
    if (update.kind === 'message_chunk') {
      this.text += update.text;
      return this.text.length >= MESSAGE_FLUSH_AT ? this.flush() : [];
    }
    const before = this.calls.get(update.toolCallId);
    const state: ToolCallState = {
      // The first notice names the call; later updates may rename it, but the first title is kept.
      title: before?.title || update.title || '',
      status: update.status ?? before?.status ?? 'pending',
      inputJson: update.inputJson ?? before?.inputJson ?? '',
      outputText: update.outputText ?? before?.outputText ?? '',
    };
    this.calls.set(update.toolCallId, state);
    return [...this.flush(), { kind: 'tool_call', promptId: this.promptId, toolCallId: update.toolCallId, ...state }];
  }

  /** The message text gathered so far (nothing when there is none). */
  flush(): TurnOutputEvent[] {
    const events: TurnOutputEvent[] = [];
    for (let start = 0; start < this.text.length; start += MESSAGE_FLUSH_AT) {
      events.push({
        kind: 'agent_message',
        promptId: this.promptId,
        text: this.text.slice(start, start + MESSAGE_FLUSH_AT),
      });
    }
    this.text = '';
    return events;
  }
}
