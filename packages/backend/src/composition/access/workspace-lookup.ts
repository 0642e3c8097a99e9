import type { WorkspaceLookup } from '../../platform/access/route-policy';
import type { Database } from '../../platform/store/database';

// The workspace each kind of resource the route rights name belongs to: one indexed read by primary
// key (and the task's), outside any transaction. Undefined when there is no such resource: the route
// then answers its own 404.

type Query = (db: Database, id: string) => Promise<{ workspace_id: string } | undefined>;

const viaTask =
  (table: string, column: string): Query =>
  (db, id) =>
    db(`${table} as r`)
      .join('tasks as t', 't.id', `r.${column}`)
      .select('t.workspace_id')
      .where('r.id', id)
      .first<{ workspace_id: string } | undefined>();

const LOOKUPS: Record<string, Query> = {
  task: (db, id) => db('tasks').select('workspace_id').where({ id }).first<{ workspace_id: string } | undefined>(),
  repository: (db, id) =>
    db('repositories').select('workspace_id').where({ id }).first<{ workspace_id: string } | undefined>(),
  session: viaTask('sessions', 'task_id'),
  question: viaTask('questions', 'task_id'),
  parent_question: viaTask('parent_questions', 'child_task_id'),
};

export function workspaceLookup(db: Database): WorkspaceLookup {
  return async (kind, id) => {
    const lookup = LOOKUPS[kind];
    if (lookup === undefined) throw new Error(`no workspace lookup for ${kind}`);
    return (await lookup(db, id))?.workspace_id;
  };
}
