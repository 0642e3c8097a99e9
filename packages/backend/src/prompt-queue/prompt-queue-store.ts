import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { toIsoString } from '../store/row-values';
import { PROMPT_STATUSES, type QueuedPrompt } from './queued-prompt';

interface QueuedPromptRow {
  id: string;
  task_id: string;
  session_id: string | null;
  prompt: string;
  source: string;
  status: string;
  created_at: unknown;
}

const StatusSchema = z.enum(PROMPT_STATUSES);

function fromRow(row: QueuedPromptRow): QueuedPrompt {
  const status = StatusSchema.safeParse(row.status);
  if (!status.success) throw new AppError('internal', `queued prompt ${row.id} has an unknown status`);
  return {
    id: row.id,
    taskId: row.task_id,
    sessionId: row.session_id,
    prompt: row.prompt,
    source: row.source,
    status: status.data,
    createdAt: toIsoString(row.created_at),
  };
}

/** Prompts for a task's agent, first in first out (by insertion order). */
export class PromptQueueStore {
  constructor(private readonly db: Knex) {}

  async enqueue(prompt: QueuedPrompt): Promise<void> {
    await this.db('prompt_queue').insert({
      id: prompt.id,
      task_id: prompt.taskId,
      session_id: prompt.sessionId,
      prompt: prompt.prompt,
      source: prompt.source,
      status: prompt.status,
      created_at: prompt.createdAt,
    });
  }

  /** The task's prompts still waiting, oldest first. */
  async listQueued(taskId: string): Promise<QueuedPrompt[]> {
    const rows = await this.db<QueuedPromptRow>('prompt_queue')
      .where({ task_id: taskId, status: 'queued' })
      .orderBy('seq');
    return rows.map(fromRow);
  }
}
