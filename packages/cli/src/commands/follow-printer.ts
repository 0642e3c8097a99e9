import { z } from 'zod';
import type { Out } from '../output';
import { type Message, MessageSchema } from '../schemas';
import { authorHead } from './follow-entries';
import { renderEvent, type StreamEvent, time } from './follow-render';

// What `kandev follow` writes for each event, with what it already wrote in mind: an agent's streamed
// text (message.updated carries the whole text so far) continues its line with only what is new, and
// a tool call's updates print only when its status moves.

const MessageDataSchema = z.object({ message: MessageSchema });

/** Streamed entries remembered (the oldest is forgotten first); a forgotten one that grows is printed whole. */
const MAX_REMEMBERED = 100;

/** A run of agent text that streams: its entry is rewritten as chunks arrive (metadata.segment >= 1). */
function isStreamedText(message: Message): boolean {
  const segment = message.metadata.segment;
  return message.type === 'message' && typeof segment === 'number' && segment > 0;
}

export class FollowPrinter {
  /** Streamed text entries: the text written so far, by entry id. */
  private readonly written = new Map<string, string>();
  /** Tool call entries: the status last written, by entry id. */
  private readonly toolStatus = new Map<string, unknown>();
  /** The entry whose line is still open (its text may go on), if any. */
  private openId: string | undefined;

  constructor(private readonly out: Out) {}

  /** The text to write for one event (often whole lines; '' when nothing is new). */
  print(event: StreamEvent): string {
    const parsed = event.type.startsWith('message.') ? MessageDataSchema.safeParse(event.data) : undefined;
    const message = parsed?.success === true ? parsed.data.message : undefined;
    if (message !== undefined && isStreamedText(message)) return this.streamed(event, message);
    if (message?.type === 'tool_call') {
      const status = message.metadata.status;
      if (this.toolStatus.has(message.id) && this.toolStatus.get(message.id) === status) return '';
      this.toolStatus.set(message.id, status);
    }
    return `${this.close()}${renderEvent(this.out, event).join('\n')}\n`;
  }

  /** Ends the open line, if any (before anything else is written, to stdout or stderr). */
  close(): string {
    if (this.openId === undefined) return '';
    this.openId = undefined;
    return '\n';
  }

  private streamed(event: StreamEvent, message: Message): string {
    const before = this.written.get(message.id);
    this.written.delete(message.id);
    this.written.set(message.id, message.content);
    // A follow may run for days: only the latest runs of text can still grow.
    if (this.written.size > MAX_REMEMBERED) this.written.delete(this.written.keys().next().value ?? '');
    if (before !== undefined && message.content.startsWith(before)) {
      const added = message.content.slice(before.length);
      if (added === '') return '';
      if (this.openId === message.id) return added;
      // Something else was written in between: the text goes on, on a line of its own.
      const head = `${this.close()}${time(this.out, event.at)} ${authorHead(this.out, message.author)} …`;
      this.openId = message.id;
      return `${head}${added}`;
    }
    const head = `${this.close()}${time(this.out, event.at)} ${authorHead(this.out, message.author)} `;
    this.openId = message.id;
    return `${head}${message.content}`;
  }
}
