import type { Knex } from 'knex';
import { z } from 'zod';
import type { EventStore } from '../events/event-store';
import { parseJsonColumn } from '../store/row-values';
import type { AgentSession, AgentSessionState } from './agent-session';
import type { Provider } from '@kandev/protocol';

/**
 * What agentctl acknowledged: a revision and the providers it holds with it, and (when the answer
 * carried it) the tool list it serves now, which tools.changed is computed from.
 */
export interface Acknowledged {
  revision: number;
  providers: readonly Provider[];
  toolNames?: readonly string[];
}

const ToolNamesColumnSchema = z.array(z.string());

/** Which tool names `next` adds to and removes from `previous`, each sorted, each name once. */
export function toolListDiff(previous: readonly string[], next: readonly string[]) {
  const before = new Set(previous);
  const after = new Set(next);
  return {
    added: [...after].filter((name) => !before.has(name)).sort(),
    removed: [...before].filter((name) => !after.has(name)).sort(),
  };
}

/**
 * The session store's events, on its connection: session.state_changed for every state write that won,
 * tools.changed when an acknowledged tool list differs from the one kept in `session_tool_lists`.
 */
export class SessionEventRecorder {
  constructor(
    private readonly db: Knex,
    private readonly events: EventStore,
  ) {}

  /** `known`: the caller's row (a session's task and executor never change), which saves a read. */
  async stateChanged(
    id: string,
    from: AgentSessionState | null,
    to: AgentSessionState,
    at: string,
    known?: Partial<Pick<AgentSession, 'taskId' | 'executor'>>,
  ): Promise<void> {
    const row =
      known?.taskId !== undefined && known.executor !== undefined
        ? { task_id: known.taskId, executor: known.executor }
        : await this.db('sessions')
            .select('task_id', 'executor')
            .where({ id })
            .first<{ task_id: string; executor: string } | undefined>();
    if (row === undefined) return;
    await this.events.append({
      type: 'session.state_changed',
      taskId: row.task_id,
      sessionId: id,
      data: { state: to, previous_state: from, executor: row.executor },
      at,
    });
  }

  /** Keeps the tool list agentctl reported and records what changed (nothing when it did not). */
  async toolList(id: string, acknowledged: Acknowledged, at: string): Promise<void> {
    if (acknowledged.toolNames === undefined) return;
    const row = await this.db('sessions').select('task_id').where({ id }).first<{ task_id: string } | undefined>();
    if (row === undefined) return;
    const kept = await this.db('session_tool_lists')
      .select('tool_names')
      .where({ session_id: id })
      .first<{ tool_names: unknown } | undefined>();
    const previous =
      kept === undefined
        ? []
        : parseJsonColumn(ToolNamesColumnSchema, kept.tool_names, 'session_tool_lists.tool_names');
    const next = [...new Set(acknowledged.toolNames)].sort();
    const { added, removed } = toolListDiff(previous, next);
    if (added.length === 0 && removed.length === 0 && kept !== undefined) return;
    await this.db('session_tool_lists')
      .insert({ session_id: id, tool_names: JSON.stringify(next) })
      .onConflict('session_id')
      .merge();
    if (added.length === 0 && removed.length === 0) return;
    await this.events.append({
      type: 'tools.changed',
      taskId: row.task_id,
      sessionId: id,
      data: { revision: acknowledged.revision, providers: [...acknowledged.providers], added, removed },
      at,
    });
  }
}
