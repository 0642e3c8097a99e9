import { api, ApiError, ok, type Task, type TaskQuery } from './api';

/** The board's filters, as GET /api/tasks takes them (and the board's address keeps them). */
export const FILTER_KEYS = ['q', 'state', 'autopilot', 'provider', 'pending_question', 'failed'] as const;
export type Filters = Partial<Record<(typeof FILTER_KEYS)[number], string>>;

export function filtersOf(params: URLSearchParams): Filters {
  const filters: Filters = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value !== null && value !== '') filters[key] = value;
  }
  return filters;
}

/** What a client-side filter needs to know beyond the task itself. */
export interface TaskFacts {
  pending: ReadonlySet<string>;
  failed: ReadonlySet<string>;
}

export interface TaskList {
  tasks: Task[];
  /** The next page, when there is one. */
  more: (() => Promise<TaskList>) | undefined;
}

/** Tasks per "load more". */
export const PAGE = 50;
/** Pages an older backend (oldest first, no filters) is read to, to sort and filter here. */
const MAX_LOCAL_PAGES = 50;

const newestFirst = (a: Task, b: Task): number => (b.created_at ?? '').localeCompare(a.created_at ?? '');

function matches(task: Task, filters: Filters, facts: TaskFacts): boolean {
  if (filters.q !== undefined && !task.title.toLowerCase().includes(filters.q.toLowerCase())) return false;
  if (filters.state !== undefined && task.state !== filters.state) return false;
  if (filters.autopilot !== undefined && String(task.autopilot) !== filters.autopilot) return false;
  if (filters.provider !== undefined && !(task.providers as string[]).includes(filters.provider)) {
    return false;
  }
  if (filters.pending_question === 'true' && !facts.pending.has(task.id)) return false;
  if (filters.failed === 'true' && !facts.failed.has(task.id)) return false;
  return true;
}

/** The paging part of a GET /api/tasks query. */
type PageQuery = Pick<TaskQuery, 'workspace_id' | 'limit' | 'cursor'>;

interface Page {
  tasks: Task[];
  next_cursor: string | null;
}

/**
 * A page of GET /api/tasks. The filters ride along as query parameters; a backend whose document does
 * not list them yet refuses them (400), which `firstTasks` handles.
 */
const getPage = (query: PageQuery & Filters): Promise<Page> =>
  // The filters come from the address as text; the backend checks them (400, handled by firstTasks).
  ok(api.GET('/api/tasks', { params: { query: query as TaskQuery } }));

/** A page list served by the backend: newest first, filtered there, the cursor for the next page. */
function served(workspaceId: string, filters: Filters, page: Page): TaskList {
  const cursor = page.next_cursor;
  return {
    tasks: page.tasks,
    more:
      cursor === null
        ? undefined
        : async () =>
            served(workspaceId, filters, await getPage({ workspace_id: workspaceId, ...filters, limit: PAGE, cursor })),
  };
}

/** All of a workspace's tasks (an older backend's oldest-first pages), sorted and filtered here. */
async function local(workspaceId: string, filters: Filters, facts: TaskFacts): Promise<TaskList> {
  const all: Task[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LOCAL_PAGES; page++) {
    const body = await getPage({ workspace_id: workspaceId, limit: 200, ...(cursor === undefined ? {} : { cursor }) });
    all.push(...body.tasks);
    if (body.next_cursor === null) break;
    cursor = body.next_cursor;
  }
  const kept = all.filter((t) => matches(t, filters, facts)).sort(newestFirst);
  const slice = (from: number): TaskList => ({
    tasks: kept.slice(from, from + PAGE),
    more: from + PAGE < kept.length ? () => Promise.resolve(slice(from + PAGE)) : undefined,
  });
  return slice(0);
}

/**
 * The board's first page of tasks, newest first. The backend sorts and filters when it can; a backend
 * that refuses the filters (400) or lists oldest first is read whole and sorted and filtered here.
 */
export async function firstTasks(workspaceId: string, filters: Filters, facts: TaskFacts): Promise<TaskList> {
  let page: Page;
  try {
    page = await getPage({ workspace_id: workspaceId, ...filters, limit: PAGE });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && Object.keys(filters).length > 0) {
      return local(workspaceId, filters, facts);
    }
    throw error;
  }
  const first = page.tasks[0];
  const last = page.tasks.at(-1);
  const oldestFirst = first !== undefined && last !== undefined && newestFirst(first, last) > 0;
  return oldestFirst ? local(workspaceId, filters, facts) : served(workspaceId, filters, page);
}

/** At least `count` tasks (what the board showed before a live re-read), following pages as needed. */
export async function tasksUpTo(
  workspaceId: string,
  filters: Filters,
  facts: TaskFacts,
  count: number,
): Promise<TaskList> {
  let list = await firstTasks(workspaceId, filters, facts);
  while (list.tasks.length < count && list.more !== undefined) {
    const next = await list.more();
    list = { tasks: [...list.tasks, ...next.tasks], more: next.more };
  }
  return list;
}
