import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import type { EventStore } from '../../platform/events/event-store';
import { parseJsonColumn, toIsoString } from '../../platform/store/row-values';
import { type Message, type MessageMetadata, MessageMetadataSchema, MessageTypeSchema, toMessageView } from './message';
import type { Sql } from '../../platform/store/sql';
import { fromTimeBound, type TimeBound } from '../../platform/store/time-keyset';

interface MessageRow {
  seq: number | string;
  id: string;
  task_id: string;
  session_id: string | null;
  type: string;
  author: string;
  content: string;
  metadata: unknown;
  tool_call_id?: string | null;
  stream_key?: string | null;
  created_at: unknown;
}

const AuthorSchema = z.union([
  z.literal('agent'),
  z.literal('operator'),
  z.templateLiteral(['task:', z.string().min(1)]),
]);

/** Rows per multi-row insert: far below SQLite's 32,766 bound variables (8 per message). */
const INSERT_CHUNK = 500;

/** A stored message with its position in the task's conversation (what a cursor points at). */
export interface StoredMessage {
  seq: number;
  message: Message;
}

function fromRow(row: MessageRow): StoredMessage {
  const type = MessageTypeSchema.safeParse(row.type);
  const author = AuthorSchema.safeParse(row.author);
  if (!type.success || !author.success) throw new AppError('internal', `message ${row.id} has an unknown type`);
  return {
    seq: Number(row.seq),
    message: {
      id: row.id,
      taskId: row.task_id,
      sessionId: row.session_id,
      type: type.data,
      author: author.data,
      content: row.content,
      metadata: parseJsonColumn(MessageMetadataSchema, row.metadata, 'messages.metadata'),
      createdAt: toIsoString(row.created_at),
    },
  };
}

/**
 * A task's conversation: append-only (except what an agent streams: a tool call's progress, a run of
 * text, a turn's plan), read oldest first. Every
 * write appends its event (message.created, message.updated) on the same connection, so an entry and
 * its event commit together.
 */
export class MessageStore {
  constructor(
    private readonly db: Sql,
    private readonly events: EventStore,
  ) {}

  async insert(message: Message): Promise<void> {
    await this.db('messages').insert(this.columns(message));
    await this.recordEvent('message.created', message, message.createdAt);
  }

  /**
   * Many entries at once, each with its message.created event, in multi-row inserts (seeding a database
   * for a load test; the same rows and events `insert` writes one by one).
   */
  async insertMany(messages: readonly Message[]): Promise<void> {
    for (let i = 0; i < messages.length; i += INSERT_CHUNK) {
      await this.db('messages').insert(messages.slice(i, i + INSERT_CHUNK).map((message) => this.columns(message)));
    }
    await this.events.appendMany(
      messages.map((message) => ({
        type: 'message.created' as const,
        taskId: message.taskId,
        sessionId: message.sessionId,
        data: { message: toMessageView(message) },
        at: message.createdAt,
      })),
    );
  }

  private async recordEvent(type: 'message.created' | 'message.updated', message: Message, at: string) {
    await this.events.append({
      type,
      taskId: message.taskId,
      sessionId: message.sessionId,
      data: { message: toMessageView(message) },
      at,
    });
  }

  /** After an update: the entry as it now reads (nothing when it is not there). */
  private async recordUpdated(id: string): Promise<void> {
    const message = await this.findById(id);
    if (message !== undefined) await this.recordEvent('message.updated', message, new Date().toISOString());
  }

  /** The first notice of an agent tool call: one entry per (session, tool call id). */
  async insertToolCall(message: Message & { type: 'tool_call'; sessionId: string }, toolCallId: string) {
    await this.db('messages').insert({ ...this.columns(message), tool_call_id: toolCallId });
    await this.recordEvent('message.created', message, message.createdAt);
  }

  async findToolCall(sessionId: string, toolCallId: string): Promise<Message | undefined> {
    const row = await this.db<MessageRow>('messages')
      .where({ session_id: sessionId, tool_call_id: toolCallId, type: 'tool_call' })
      .first();
    return row === undefined ? undefined : fromRow(row).message;
  }

  /** A later notice of the same tool call: its title and metadata (status, output) move on. */
  async updateToolCall(id: string, content: string, metadata: MessageMetadata): Promise<void> {
    const updated = await this.db('messages')
      .where({ id, type: 'tool_call' })
      .update({ content, metadata: JSON.stringify(metadata) });
    if (updated > 0) await this.recordUpdated(id);
  }

  /** The first event of an agent's stream (a run of text, a turn's plan): one entry per (session, key). */
  async insertStreamed(message: Message & { sessionId: string }, streamKey: string): Promise<void> {
    await this.db('messages').insert({ ...this.columns(message), stream_key: streamKey });
    await this.recordEvent('message.created', message, message.createdAt);
  }

  async findStreamed(sessionId: string, streamKey: string): Promise<Message | undefined> {
    const row = await this.db<MessageRow>('messages').where({ session_id: sessionId, stream_key: streamKey }).first();
    return row === undefined ? undefined : fromRow(row).message;
  }

  /** A later event of the same stream: the entry as it now reads (all the text so far, the whole plan). */
  async updateStreamed(message: Message, at: string): Promise<void> {
    const updated = await this.db('messages')
      .where({ id: message.id })
      .whereNotNull('stream_key')
      .update({ content: message.content, metadata: JSON.stringify(message.metadata) });
    if (updated > 0) await this.recordEvent('message.updated', message, at);
  }

  /** A parent question's entry follows its status: the metadata is rewritten with each move. */
  async updateMetadata(id: string, type: 'parent_question', metadata: MessageMetadata): Promise<void> {
    const updated = await this.db('messages')
      .where({ id, type })
      .update({ metadata: JSON.stringify(metadata) });
    if (updated > 0) await this.recordUpdated(id);
  }

  async findById(id: string): Promise<Message | undefined> {
    const row = await this.db<MessageRow>('messages').where({ id }).first();
    return row === undefined ? undefined : fromRow(row).message;
  }

  private columns(message: Message) {
    return {
      id: message.id,
      task_id: message.taskId,
      session_id: message.sessionId,
      type: message.type,
      author: message.author,
      content: message.content,
      metadata: JSON.stringify(message.metadata),
      created_at: message.createdAt,
    };
  }

  /** Up to `limit` of the task's tool call entries after `bound`, by (created_at, seq): its timeline's. */
  async listToolCalls(taskId: string, bound: TimeBound | undefined, limit: number): Promise<StoredMessage[]> {
    const query = this.db<MessageRow>('messages').where({ task_id: taskId, type: 'tool_call' });
    const rows: MessageRow[] = await fromTimeBound(query, 'created_at', 'seq', bound).limit(limit);
    return rows.map(fromRow);
  }

  /** Up to `limit` messages of the task after position `afterSeq` (0: from the start), oldest first. */
  async listAfter(taskId: string, afterSeq: number, limit: number): Promise<StoredMessage[]> {
    const rows = await this.db<MessageRow>('messages')
      .where({ task_id: taskId })
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit);
    return rows.map(fromRow);
  }
}
