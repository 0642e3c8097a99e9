import { api, ok, type TaskListItem, type TaskQuery } from './api';

/** The board's filters, as GET /api/tasks takes them (and the board's address keeps them). */
export const FILTER_KEYS = ['q', 'state', 'autopilot', 'provider', 'pending_question', 'failed'] as const;
type Filters = Pick<TaskQuery, (typeof FILTER_KEYS)[number]>;

const BOOLEAN = ['true', 'false'] as const;
const PROVIDERS = ['github', 'gitlab'] as const;
const pick = <T extends string>(allowed: readonly T[], value: string | null): T | undefined =>
  allowed.find((a) => a === value);

/**
 * The filters in the board's address, as the typed query takes them: a value the backend would refuse
 * (a hand-edited address) is left out rather than sent (the board shows what the rest selects).
 */
export function filtersOf(params: URLSearchParams): Filters {
  const text = (key: string) => {
    const value = params.get(key)?.trim() ?? '';
    return value === '' ? undefined : value.slice(0, 200);
  };
  const filters: Filters = {
    q: text('q'),
    state: text('state'),
    autopilot: pick(BOOLEAN, params.get('autopilot')),
    provider: pick(PROVIDERS, params.get('provider')),
    pending_question: pick(BOOLEAN, params.get('pending_question')),
    failed: pick(BOOLEAN, params.get('failed')),
  };
  for (const key of FILTER_KEYS) if (filters[key] === undefined) delete filters[key];
  return filters;
}

export interface TaskList {
  tasks: TaskListItem[];
  /** The next page, when there is one. */
  more: (() => Promise<TaskList>) | undefined;
}

/** Tasks per "load more". */
export const PAGE = 50;

/**
 * A page of the workspace's tasks as the backend sorts, searches and filters them (newest first), with
 * the next one behind its `next_cursor`.
 */
async function page(workspaceId: string, filters: Filters, cursor?: string): Promise<TaskList> {
  const query: TaskQuery = {
    workspace_id: workspaceId,
    sort: 'created_desc',
    limit: PAGE,
    ...filters,
    ...(cursor === undefined ? {} : { cursor }),
  };
  const body = await ok(api.GET('/api/tasks', { params: { query } }));
  const next = body.next_cursor;
  return { tasks: body.tasks, more: next === null ? undefined : () => page(workspaceId, filters, next) };
}

/** At least `count` tasks (what the board showed before a live re-read), following pages as needed. */
export async function tasksUpTo(workspaceId: string, filters: Filters, count: number): Promise<TaskList> {
  let list = await page(workspaceId, filters);
  while (list.tasks.length < count && list.more !== undefined) {
    const next = await list.more();
    list = { tasks: [...list.tasks, ...next.tasks], more: next.more };
  }
  return list;
}
