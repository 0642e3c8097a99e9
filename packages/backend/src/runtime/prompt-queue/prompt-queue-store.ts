import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import type { EventStore } from '../../platform/events/event-store';
import { toIsoString, toNullableIsoString } from '../../platform/store/row-values';
import { PRIORITY_RANK, priorityOfRank, PROMPT_STATUSES, type PromptOutcome, type QueuedPrompt } from './queued-prompt';
import type { Sql } from '../../platform/store/sql';
import { fromTimeBound, type TimeBound } from '../../platform/store/time-keyset';

interface QueuedPromptRow {
  id: string;
  task_id: string;
  session_id: string | null;
  prompt: string;
  source: string;
  priority: number | string;
  status: string;
  created_at: unknown;
  dispatched_at: unknown;
  finished_at: unknown;
  stop_reason: string | null;
  error: string | null;
  coalescing_key?: string | null;
}

const StatusSchema = z.enum(PROMPT_STATUSES);

function fromRow(row: QueuedPromptRow): QueuedPrompt {
  const status = StatusSchema.safeParse(row.status);
  const priority = priorityOfRank(Number(row.priority));
  if (!status.success || priority === undefined) {
    throw new AppError('internal', `queued prompt ${row.id} has an unknown status or priority`);
  }
  return {
    id: row.id,
    taskId: row.task_id,
    sessionId: row.session_id,
    prompt: row.prompt,
    source: row.source,
    priority,
    status: status.data,
    createdAt: toIsoString(row.created_at),
    dispatchedAt: toNullableIsoString(row.dispatched_at),
    finishedAt: toNullableIsoString(row.finished_at),
    stopReason: row.stop_reason ?? null,
    error: row.error ?? null,
    coalescingKey: row.coalescing_key ?? null,
  };
}

/**
 * Prompts for a task's agent, first in first out (by insertion order, `seq`) within a priority (a
 * parent's answer first). Every status change is a
 * compare-and-set on the status the caller expects, so a prompt is claimed, finished or requeued once.
 */
export class PromptQueueStore {
  constructor(
    private readonly db: Sql,
    private readonly events: EventStore,
  ) {}

  /**
   * A prompt joined or left the waiting line (enqueue, requeue here; a claim by the drainer once the
   * claim committed): queue.changed with the task's depth (prompts still queued), in one read, on the
   * same connection.
   */
  async recordQueueChanged(id: string, sessionId: string | null, at: string): Promise<void> {
    const row = (await this.db('prompt_queue as p')
      .select(
        'p.task_id',
        'p.status',
        this.db('prompt_queue as q')
          .count('*')
          .where('q.status', 'queued')
          .where('q.task_id', this.db.ref('p.task_id'))
          .as('depth'),
      )
      .where('p.id', id)
      .first()) as { task_id: string; status: string; depth: number | string } | undefined;
    if (row === undefined) return;
    await this.events.append({
      type: 'queue.changed',
      taskId: row.task_id,
      sessionId,
      data: { depth: Number(row.depth), prompt_id: id, status: row.status },
      at,
    });
  }

  /** Prompts waiting to be dispatched, over every task (the metrics gauge). */
  async countQueued(): Promise<number> {
    const row = await this.db('prompt_queue').where({ status: 'queued' }).count({ count: '*' }).first();
    return Number(row?.count ?? 0);
  }

  async enqueue(prompt: QueuedPrompt): Promise<void> {
    await this.db('prompt_queue').insert({
      id: prompt.id,
      task_id: prompt.taskId,
      session_id: prompt.sessionId,
      prompt: prompt.prompt,
      source: prompt.source,
      priority: PRIORITY_RANK[prompt.priority],
      status: prompt.status,
      created_at: prompt.createdAt,
      dispatched_at: prompt.dispatchedAt,
      finished_at: prompt.finishedAt,
      stop_reason: prompt.stopReason,
      error: prompt.error,
      coalescing_key: prompt.coalescingKey ?? null,
    });
    await this.recordQueueChanged(prompt.id, prompt.sessionId, prompt.createdAt);
  }

  /** Whether a prompt was ever queued for this transition (whatever its status now). */
  async hasCoalescingKey(key: string): Promise<boolean> {
    return (await this.db('prompt_queue').where({ coalescing_key: key }).first('id')) !== undefined;
  }

  async findById(id: string): Promise<QueuedPrompt | undefined> {
    const row = await this.db<QueuedPromptRow>('prompt_queue').where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** Up to `limit` of the task's prompts queued after `bound`, whatever their status, with their positions. */
  async listForTimeline(
    taskId: string,
    bound: TimeBound | undefined,
    limit: number,
  ): Promise<{ seq: number; prompt: QueuedPrompt }[]> {
    const query = this.db<QueuedPromptRow & { seq: number | string }>('prompt_queue').where({ task_id: taskId });
    const rows: (QueuedPromptRow & { seq: number | string })[] = await fromTimeBound(
      query,
      'created_at',
      'seq',
      bound,
    ).limit(limit);
    return rows.map((row) => ({ seq: Number(row.seq), prompt: fromRow(row) }));
  }

  /** The task's prompts still waiting, oldest first. */
  async listQueued(taskId: string): Promise<QueuedPrompt[]> {
    const rows = await this.db<QueuedPromptRow>('prompt_queue')
      .where({ task_id: taskId, status: 'queued' })
      .orderBy('seq');
    return rows.map(fromRow);
  }

  /** Every prompt bound to the session, whatever its status, oldest first. */
  async listForSession(sessionId: string): Promise<QueuedPrompt[]> {
    const rows = await this.db<QueuedPromptRow>('prompt_queue').where({ session_id: sessionId }).orderBy('seq');
    return rows.map(fromRow);
  }

  /** The session's prompt in flight (at most one: the drainer claims only when none is). */
  async findDispatched(sessionId: string): Promise<QueuedPrompt | undefined> {
    const row = await this.db<QueuedPromptRow>('prompt_queue')
      .where({ session_id: sessionId, status: 'dispatched' })
      .orderBy('seq')
      .first();
    return row === undefined ? undefined : fromRow(row);
  }

  /**
   * The next prompt waiting for the session (highest priority, then oldest): bound to it, or (with
   * `includeUnbound`, for the task's newest live session) queued for the task with no session.
   */
  async nextQueued(
    session: { id: string; taskId: string },
    includeUnbound: boolean,
  ): Promise<QueuedPrompt | undefined> {
    const row = await this.db<QueuedPromptRow>('prompt_queue')
      .where({ status: 'queued' })
      .where((q) => {
        void q.where({ session_id: session.id });
        if (includeUnbound) void q.orWhere((u) => void u.where({ task_id: session.taskId }).whereNull('session_id'));
      })
      .orderBy([{ column: 'priority', order: 'desc' }, { column: 'seq' }])
      .first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** queued -> dispatched, bound to the session (an unbound prompt is claimed by it). */
  async claim(id: string, sessionId: string, now: string): Promise<boolean> {
    const updated = await this.db('prompt_queue')
      .where({ id, status: 'queued' })
      .where((q) => void q.where({ session_id: sessionId }).orWhereNull('session_id'))
      .update({ status: 'dispatched', session_id: sessionId, dispatched_at: now });
    return updated > 0;
  }

  /** dispatched -> completed | failed; false when it was not in flight for that session. */
  async finish(id: string, sessionId: string, outcome: PromptOutcome, now: string): Promise<boolean> {
    const updated = await this.db('prompt_queue')
      .where({ id, session_id: sessionId, status: 'dispatched' })
      .update({
        status: outcome.status,
        stop_reason: outcome.status === 'completed' ? outcome.stopReason : null,
        error: outcome.status === 'failed' ? outcome.error : outcome.warning,
        finished_at: now,
      });
    return updated > 0;
  }

  /**
   * queued -> cancelled, only while still queued for this session (a claim by the drainer wins the
   * race); queue.changed on the same connection. False when it was no longer queued.
   */
  async cancelQueued(id: string, sessionId: string, now: string): Promise<boolean> {
    const updated = await this.db('prompt_queue')
      .where({ id, session_id: sessionId, status: 'queued' })
      .update({ status: 'cancelled', finished_at: now, error: 'cancelled by the operator before delivery' });
    if (updated > 0) await this.recordQueueChanged(id, sessionId, now);
    return updated > 0;
  }

  /** dispatched -> queued: agentctl refused it, so it was never delivered; it keeps its place. */
  async requeue(id: string, sessionId: string): Promise<boolean> {
    const updated = await this.db('prompt_queue')
      .where({ id, session_id: sessionId, status: 'dispatched' })
      .update({ status: 'queued', dispatched_at: null });
    if (updated > 0) await this.recordQueueChanged(id, sessionId, new Date().toISOString());
    return updated > 0;
  }

  /** Fails the session's prompt in flight (agent exited, stop, resume); resolves its id, if any. */
  async failDispatched(sessionId: string, error: string, now: string): Promise<string | undefined> {
    const dispatched = await this.findDispatched(sessionId);
    if (dispatched === undefined) return undefined;
    const failed = await this.finish(dispatched.id, sessionId, { status: 'failed', error }, now);
    return failed ? dispatched.id : undefined;
  }

  /**
   * Sessions with an agent turn that may be stuck (several replicas, one of them gone): running or
   * idle, with a prompt in flight since before `before`, or a prompt queued for them (bound, or unbound
   * for their task) since before it. Ids in no particular order.
   */
  async sessionsWaitingSince(before: string): Promise<string[]> {
    const rows = await this.db('sessions as s')
      .whereIn('s.state', ['running', 'waiting_for_input'])
      .whereRaw(
        `EXISTS (SELECT 1 FROM prompt_queue p WHERE
           (p.session_id = s.id AND p.status = 'dispatched' AND p.dispatched_at < ?)
           OR (p.status = 'queued' AND p.created_at < ?
               AND (p.session_id = s.id OR (p.session_id IS NULL AND p.task_id = s.task_id))))`,
        [before, before],
      )
      .select<{ id: string }[]>('s.id');
    return rows.map((row) => row.id);
  }
}
