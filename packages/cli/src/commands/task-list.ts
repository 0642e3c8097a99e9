import { type Command, Option } from 'commander';
import type { operations } from '@kandev/rest-client';
import { type Ctx, run } from '../context';
import { age, byTime, printTable } from '../conventions/lists';
import { flagQuery, serverListOptions, type ServerListOptions, wordsOf } from '../conventions/server-lists';
import { resolveId } from '../conventions/resolve-id';
import { allWorkspaces } from './noun-helpers';
import { TASK_STATES } from './actions/task-actions';

// `kandev tasks ls`: the backend sorts, searches and filters; the CLI reads pages until --limit.

type TaskQuery = operations['listTasks']['parameters']['query'];
type TaskItem = operations['listTasks']['responses'][200]['content']['application/json']['tasks'][number];

const ORDERS = {
  newest: 'created_desc',
  oldest: 'created_asc',
  updated: 'updated_desc',
  'updated-oldest': 'updated_asc',
};
type Order = keyof typeof ORDERS;

/** The same orders, to merge the pages of several workspaces (each already in that order). */
const MERGE: Record<Order, (a: TaskItem, b: TaskItem) => number> = {
  newest: byTime<TaskItem>((t) => t.created_at, true),
  oldest: byTime<TaskItem>((t) => t.created_at, false),
  updated: byTime<TaskItem>((t) => t.updated_at, true),
  'updated-oldest': byTime<TaskItem>((t) => t.updated_at, false),
};

interface TaskListOptions extends ServerListOptions {
  workspace?: string;
  archived?: boolean;
  state?: string;
  search?: string;
  autopilot?: boolean;
  provider?: 'github' | 'gitlab';
  pendingQuestion?: boolean;
  failed?: boolean;
}

function queryOf(options: TaskListOptions): Omit<TaskQuery, 'workspace_id'> {
  const order = (options.sort ?? 'newest') as Order;
  return {
    sort: ORDERS[order] as TaskQuery['sort'],
    q: options.search,
    state: options.state,
    provider: options.provider,
    autopilot: flagQuery(options.autopilot),
    pending_question: flagQuery(options.pendingQuestion),
    failed: flagQuery(options.failed),
    ...(options.archived === true ? { include_archived: 'true' as const } : {}),
  };
}

/** The first --limit tasks of one workspace, or of every workspace merged in the same order. */
async function readTasks(ctx: Ctx, options: TaskListOptions): Promise<TaskItem[]> {
  const workspaceIds =
    options.workspace !== undefined
      ? [await resolveId(ctx, 'workspace', options.workspace)]
      : (await allWorkspaces(ctx)).map((w) => w.id);
  const query = queryOf(options);
  const tasks: TaskItem[] = [];
  for (const workspace_id of workspaceIds) {
    tasks.push(
      ...(await ctx.api.upTo('tasks', options.limit, (page) =>
        ctx.api.rest.GET('/api/tasks', { params: { query: { workspace_id, ...query, ...page } } }),
      )),
    );
  }
  if (workspaceIds.length < 2) return tasks;
  // Each workspace's first n are in order, so the first n of them all are the first n overall.
  const merged = tasks.sort(MERGE[(options.sort ?? 'newest') as Order]);
  return options.limit === undefined ? merged : merged.slice(0, options.limit);
}

function attentionOf(task: TaskItem): string {
  const marks: string[] = [];
  if (task.attention.failed) marks.push('failed');
  if (task.attention.pending_questions > 0) marks.push(`${task.attention.pending_questions} question(s)`);
  return marks.join(', ') || '-';
}

export function taskList(noun: Command): void {
  serverListOptions(
    noun
      .command('ls')
      .option('-w, --workspace <id>', 'only this workspace (default: every workspace)')
      .option('--archived', 'include archived tasks')
      .option(
        '-s, --state <state>',
        `only these states (comma-separated: ${TASK_STATES.join(', ')})`,
        wordsOf(TASK_STATES),
      )
      .option('-q, --search <text>', 'only titles containing this text (any case)')
      .option('--autopilot', 'only autopilot tasks')
      .option('--no-autopilot', 'only tasks an operator answers')
      .addOption(
        new Option('--provider <name>', 'only tasks with a repository of this provider').choices(['github', 'gitlab']),
      )
      .option('--pending-question', 'only tasks waiting on a question')
      .option('--no-pending-question', 'only tasks not waiting on a question')
      .option('--failed', 'only tasks whose newest session failed')
      .option('--no-failed', 'only tasks whose newest session did not fail')
      .description('list tasks, newest first'),
    ORDERS,
  ).action(
    run(async (ctx, options: TaskListOptions) => {
      printTable(ctx, await readTasks(ctx, options), [
        { header: 'ID', cell: (t) => t.id },
        {
          header: 'STATE',
          cell: (t) => (t.archived_at === null || t.archived_at === undefined ? t.state : `${t.state} (archived)`),
        },
        { header: 'ATTENTION', cell: attentionOf },
        { header: 'AGE', cell: (t) => age(t.created_at), wide: true },
        { header: 'WORKSPACE', cell: (t) => t.workspace_id, wide: true },
        { header: 'PROVIDERS', cell: (t) => t.providers.join(',') || '-', wide: true },
        { header: 'AUTOPILOT', cell: (t) => (t.autopilot ? 'yes' : 'no'), wide: true },
        { header: 'TITLE', cell: (t) => t.title },
      ]);
    }),
  );
}
