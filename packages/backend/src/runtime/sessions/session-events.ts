import { z } from 'zod';
import type { EventStore, NewEvent } from '../../platform/events/event-store';
import { parseJsonColumn } from '../../platform/store/row-values';
import { sendWrite } from '../../platform/store/driver/store-transaction';
import type { AgentSession, AgentSessionState } from './agent-session';
import type { Provider } from '@kandev/protocol';
import type { Sql } from '../../platform/store/sql';
import { keepHistory } from './store/session-history';

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
 * tools.changed when an acknowledged tool list differs from the one kept in `session_tool_lists`; each
 * also kept in the session's history (store/session-history.ts), which outlives the event log.
 */
export class SessionEventRecorder {
  constructor(
    private readonly db: Sql,
    private readonly events: EventStore,
  ) {}

  /**
   * `known`: the caller's row (a session's task and executor never change), which saves a read.
   * `error`: the last error written with the change (why it failed), said in the event as `error`.
   */
  async stateChanged(
    id: string,
    from: AgentSessionState | null,
    to: AgentSessionState,
    at: string,
    known?: Partial<Pick<AgentSession, 'taskId' | 'executor'>>,
    error: string | null = null,
  ): Promise<void> {
    const row =
      known?.taskId !== undefined && known.executor !== undefined
        ? { task_id: known.taskId, executor: known.executor }
        : await this.db('sessions')
            .select('task_id', 'executor')
            .where({ id })
            .first<{ task_id: string; executor: string } | undefined>();
    if (row === undefined) return;
    const event: NewEvent = {
      type: 'session.state_changed',
      taskId: row.task_id,
      sessionId: id,
      data: { state: to, previous_state: from, executor: row.executor, ...(error === null ? {} : { error }) },
      at,
    };
    await this.events.append(event);
    await keepHistory(this.db, [event]);
  }

  /**
   * Keeps the tool lists agentctl reported and records what changed (nothing where it did not), for
   * sessions whose tasks the caller knows: one read (unless the caller read them: `known`), one upsert,
   * one insert of events.
   */
  async toolLists(entries: readonly ToolListEntry[], at: string, known?: KeptToolLists): Promise<void> {
    const reported = entries.filter((entry) => entry.acknowledged.toolNames !== undefined);
    const kept = known ?? (await this.keptToolLists(entries));
    const upserts: { session_id: string; tool_names: string }[] = [];
    const changed: NewEvent[] = [];
    for (const { id, taskId, acknowledged } of reported) {
      const previous = kept.get(id);
      const next = [...new Set(acknowledged.toolNames)].sort();
      const { added, removed } = toolListDiff(previous ?? [], next);
      const same = added.length === 0 && removed.length === 0;
      if (same && previous !== undefined) continue;
      upserts.push({ session_id: id, tool_names: JSON.stringify(next) });
      if (same) continue;
      const data = { revision: acknowledged.revision, providers: [...acknowledged.providers], added, removed };
      changed.push({ type: 'tools.changed', taskId, sessionId: id, data, at });
    }
    for (const rows of chunks(upserts)) {
      await sendWrite(this.db, this.db('session_tool_lists').insert(rows).onConflict('session_id').merge());
    }
    await this.events.appendMany(changed);
    await keepHistory(this.db, changed);
  }

  /**
   * The tool lists kept for the entries that carry one: a caller may read them alongside its own reads
   * and hand them to `toolLists`.
   */
  async keptToolLists(entries: readonly Pick<ToolListEntry, 'id' | 'acknowledged'>[]): Promise<KeptToolLists> {
    const reported = entries.filter((entry) => entry.acknowledged.toolNames !== undefined);
    const reads = chunks(reported.map((entry) => entry.id)).map((ids) =>
      this.db('session_tool_lists')
        .select('session_id', 'tool_names')
        .whereIn('session_id', ids)
        .then((found: { session_id: string; tool_names: unknown }[]) => found),
    );
    const kept: KeptToolLists = new Map();
    for (const row of (await Promise.all(reads)).flat()) {
      kept.set(row.session_id, parseJsonColumn(ToolNamesColumnSchema, row.tool_names, 'session_tool_lists.tool_names'));
    }
    return kept;
  }
}

/** Each session's kept tool list, by session id (absent: none kept yet). */
export type KeptToolLists = Map<string, string[]>;

/** A session's acknowledged tool list, with its task. */
export interface ToolListEntry {
  id: string;
  taskId: string;
  acknowledged: Acknowledged;
}

/** Slices of at most 500: far below SQLite's 32,766 bound variables per statement. */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const sliced: T[][] = [];
  for (let i = 0; i < items.length; i += size) sliced.push(items.slice(i, i + size));
  return sliced;
}
