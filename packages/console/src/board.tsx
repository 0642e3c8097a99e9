import { useRef, useState } from 'preact/hooks';
import { type AgentProfile, api, ok, type Question, type SessionSummary, type Task, type Workspace } from './api';
import { BoardFilters } from './board-filters';
import { describeError } from './errors';
import { useLiveEvents } from './live';
import { useResource } from './resource';
import { taskHref } from './route';
import { type Filters, filtersOf, tasksUpTo, type TaskList } from './task-list';
import { Status } from './widgets';

const STATES: Task['state'][] = ['todo', 'in_progress', 'review', 'done'];
const STATE_LABELS: Record<Task['state'], string> = {
  todo: 'To do',
  in_progress: 'In progress',
  review: 'Review',
  done: 'Done',
};
/** A session starting this long is reported as stuck on its task's card. */
const STUCK_MS = 5 * 60_000;

interface BoardData {
  workspaces: Workspace[];
  workspaceId: string | undefined;
  list: TaskList;
  profiles: AgentProfile[];
  pending: Question[];
  /** Per task: its failed and its stuck (starting too long) sessions. */
  failed: Map<string, number>;
  stuck: Map<string, number>;
}

async function troubled(): Promise<{ failed: Map<string, number>; stuck: Map<string, number> }> {
  const count = (sessions: SessionSummary[], keep: (s: SessionSummary) => boolean) => {
    const counts = new Map<string, number>();
    for (const s of sessions.filter(keep)) counts.set(s.task_id, (counts.get(s.task_id) ?? 0) + 1);
    return counts;
  };
  const [failed, starting] = await Promise.all(
    (['failed', 'starting'] as const).map((state) =>
      ok(api.GET('/api/sessions', { params: { query: { state, limit: 200 } } })),
    ),
  );
  const now = Date.now();
  return {
    failed: count(failed?.sessions ?? [], () => true),
    stuck: count(starting?.sessions ?? [], (s) => now - Date.parse(s.updated_at ?? s.created_at) > STUCK_MS),
  };
}

/** The board: a workspace's tasks by state, newest first, searchable, each card badged with what needs the operator. */
export function Board(props: { params: URLSearchParams }) {
  const [workspaceId, setWorkspaceId] = useState<string | undefined>(props.params.get('workspace') ?? undefined);
  const filters: Filters = filtersOf(props.params);
  const key = `${workspaceId ?? ''}?${props.params.toString()}`;
  // How many tasks the operator loaded ("load more"): a live re-read reads as many again. A ref, not
  // the data's length: a read in flight when more came must not shrink it back.
  const wanted = useRef({ key, count: 0 });
  if (wanted.current.key !== key) wanted.current = { key, count: 0 };

  const board = useResource(key, async (): Promise<BoardData> => {
    const { workspaces } = await ok(api.GET('/api/workspaces', { params: { query: { limit: 200 } } }));
    const current = workspaceId ?? workspaces[0]?.id;
    const [profiles, pending, trouble] = await Promise.all([
      ok(api.GET('/api/agent-profiles')),
      ok(api.GET('/api/questions', { params: { query: { state: 'pending' } } })),
      troubled(),
    ]);
    const facts = { pending: new Set(pending.questions.map((q) => q.task_id)), failed: new Set(trouble.failed.keys()) };
    const list =
      current === undefined
        ? { tasks: [], more: undefined }
        : await tasksUpTo(current, filters, facts, wanted.current.count);
    return {
      workspaces,
      workspaceId: current,
      list,
      profiles: profiles.agent_profiles,
      pending: pending.questions,
      ...trouble,
    };
  });
  useLiveEvents('', (event) => {
    if (/^(task|question|parent_question|session)\.|^poll$|^reset$|^stream\.head$/.test(event.type)) board.reload();
  });
  const [moreError, setMoreError] = useState<string | undefined>();
  const loadMore = () => {
    const more = board.data?.list.more;
    if (more === undefined) return;
    more().then(
      (next) => {
        setMoreError(undefined);
        board.update((d) => {
          const tasks = [...d.list.tasks, ...next.tasks];
          wanted.current.count = Math.max(wanted.current.count, tasks.length);
          return { ...d, list: { tasks, more: next.more } };
        });
      },
      (failure: unknown) => setMoreError(describeError(failure)),
    );
  };

  const data = board.data;
  if (data === undefined) return <Status error={board.error}>Loading…</Status>;
  const filtered = Object.keys(filters).length > 0;
  return (
    <section>
      <div class="toolbar">
        <h1>Tasks</h1>
        {data.workspaces.length > 0 && (
          <select
            aria-label="Workspace"
            value={data.workspaceId}
            onChange={(e) => setWorkspaceId(e.currentTarget.value)}
          >
            {data.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        )}
      </div>
      <Status error={board.error} />
      {data.workspaceId === undefined ? (
        <NewWorkspace onCreated={(id) => setWorkspaceId(id)} />
      ) : (
        <NewTask workspaceId={data.workspaceId} profiles={data.profiles} onCreated={board.reload} />
      )}
      <BoardFilters params={props.params} />
      <p class="muted" aria-live="polite" data-testid="task-count">
        {data.list.tasks.length} task{data.list.tasks.length === 1 ? '' : 's'} shown
        {filtered ? ' (filtered)' : ''}
        {data.list.more !== undefined ? ', more below' : ''}
      </p>
      <div class="board">
        {STATES.map((state) => (
          <div class="column" key={state} data-state={state}>
            <h2>{STATE_LABELS[state]}</h2>
            <ul class="plain">
              {data.list.tasks
                .filter((t) => t.state === state)
                .map((t) => (
                  <li key={t.id}>
                    <TaskCard
                      task={t}
                      questions={data.pending.filter((q) => q.task_id === t.id).length}
                      failed={data.failed.get(t.id) ?? 0}
                      stuck={data.stuck.get(t.id) ?? 0}
                    />
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </div>
      {data.list.more !== undefined && (
        <p>
          <button type="button" class="secondary" onClick={loadMore}>
            Load more
          </button>
        </p>
      )}
      <Status error={moreError} />
    </section>
  );
}

function TaskCard(props: { task: Task; questions: number; failed: number; stuck: number }) {
  const { task } = props;
  return (
    <a class="card" href={taskHref(task.id)} data-task={task.id}>
      <span class="title">{task.title}</span>
      <span class="badges">
        {props.failed > 0 && (
          <span class="badge tone-bad" title="a session of this task failed">
            failed session
          </span>
        )}
        {props.stuck > 0 && (
          <span class="badge tone-wait" title="a session has been starting for over 5 minutes">
            stuck session
          </span>
        )}
        {task.autopilot && <span class="badge">autopilot</span>}
        {props.questions > 0 && (
          <span class="badge attention" title="operator questions waiting for an answer">
            {props.questions} question{props.questions > 1 ? 's' : ''}
          </span>
        )}
        {task.pending_action !== null && <span class="badge attention">{task.pending_action}</span>}
        {task.providers.map((p) => (
          <span class="badge" key={p}>
            {p}
          </span>
        ))}
      </span>
    </a>
  );
}

function NewWorkspace(props: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: Event) => {
    event.preventDefault();
    ok(api.POST('/api/workspaces', { body: { name: name.trim() } })).then(
      (w) => props.onCreated(w.id),
      (failure: unknown) => setError(describeError(failure)),
    );
  };
  return (
    <form class="inline" onSubmit={submit}>
      <input
        aria-label="Workspace name"
        placeholder="Workspace name"
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <button type="submit" disabled={name.trim() === ''}>
        Create workspace
      </button>
      <Status error={error} />
    </form>
  );
}

function NewTask(props: { workspaceId: string; profiles: AgentProfile[]; onCreated: () => void }) {
  const [title, setTitle] = useState('');
  const [profile, setProfile] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: Event) => {
    event.preventDefault();
    const body = {
      workspace_id: props.workspaceId,
      title: title.trim(),
      ...(profile === '' ? {} : { agent_profile_id: profile }),
    };
    ok(api.POST('/api/tasks', { body })).then(
      (task) => {
        setTitle('');
        setError(undefined);
        props.onCreated();
        location.hash = taskHref(task.id);
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  };
  return (
    <form class="inline" onSubmit={submit}>
      <input
        aria-label="Task title"
        placeholder="New task title"
        value={title}
        onInput={(e) => setTitle(e.currentTarget.value)}
      />
      <select aria-label="Agent profile" value={profile} onChange={(e) => setProfile(e.currentTarget.value)}>
        <option value="">No agent (MCP only)</option>
        {props.profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <button type="submit" disabled={title.trim() === ''}>
        Create task
      </button>
      <Status error={error} />
    </form>
  );
}
