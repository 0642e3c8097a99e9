import { useRef, useState } from 'preact/hooks';
import { type AgentProfile, api, ok, type Task, type TaskListItem, type Workspace } from './api';
import { BoardFilters } from './board-filters';
import { describeError } from './errors';
import { useLiveEvents } from './live';
import { useResource } from './resource';
import { taskHref } from './route';
import { filtersOf, tasksUpTo, type TaskList } from './task-list';
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
}

/** The task's newest session has been starting too long (its agent never came up). */
function stuck(task: TaskListItem): boolean {
  const latest = task.attention.latest_session;
  return latest?.state === 'starting' && Date.now() - Date.parse(latest.updated_at) > STUCK_MS;
}

/** The board: a workspace's tasks by state, newest first, searchable, each card badged with what needs the operator. */
export function Board(props: { params: URLSearchParams }) {
  const [workspaceId, setWorkspaceId] = useState<string | undefined>(props.params.get('workspace') ?? undefined);
  const key = `${workspaceId ?? ''}?${props.params.toString()}`;
  // How many tasks the operator loaded ("load more"): a live re-read reads as many again. A ref, not
  // the data's length: a read in flight when more came must not shrink it back.
  const wanted = useRef({ key, count: 0 });
  if (wanted.current.key !== key) wanted.current = { key, count: 0 };

  const board = useResource(key, async (): Promise<BoardData> => {
    const { workspaces } = await ok(api.GET('/api/workspaces', { params: { query: { limit: 200 } } }));
    const current = workspaceId ?? workspaces[0]?.id;
    const [profiles, list] = await Promise.all([
      ok(api.GET('/api/agent-profiles')),
      current === undefined
        ? { tasks: [], more: undefined }
        : tasksUpTo(current, filtersOf(props.params), wanted.current.count),
    ]);
    return { workspaces, workspaceId: current, list, profiles: profiles.agent_profiles };
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
  const filtered = Object.keys(filtersOf(props.params)).length > 0;
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
                    <TaskCard task={t} />
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

/** A task's card, badged from its `attention`: a failed or stuck newest session, pending questions. */
function TaskCard(props: { task: TaskListItem }) {
  const { task } = props;
  const { failed, pending_questions: questions, latest_session: latest } = task.attention;
  return (
    <a class="card" href={taskHref(task.id)} data-task={task.id}>
      <span class="title">{task.title}</span>
      <span class="badges">
        {failed && (
          <span class="badge tone-bad" title={latest?.last_error ?? 'the newest session of this task failed'}>
            failed session
          </span>
        )}
        {stuck(task) && (
          <span class="badge tone-wait" title="a session has been starting for over 5 minutes">
            stuck session
          </span>
        )}
        {task.autopilot && <span class="badge">autopilot</span>}
        {questions > 0 && (
          <span class="badge attention" title="questions waiting for an answer">
            {questions} question{questions > 1 ? 's' : ''}
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
    <form class="inline" onSubmit={submit} data-needs="admin">
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
    <form class="inline" onSubmit={submit} data-needs="operate">
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
