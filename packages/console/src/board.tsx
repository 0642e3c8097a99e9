import { useEffect, useState } from 'preact/hooks';
import { type AgentProfile, api, ApiError, ok, type Question, type Task, type Workspace } from './api';
import { useLiveEvents } from './live';

const STATES: Task['state'][] = ['todo', 'in_progress', 'review', 'done'];
const STATE_LABELS: Record<Task['state'], string> = {
  todo: 'To do',
  in_progress: 'In progress',
  review: 'Review',
  done: 'Done',
};

interface BoardData {
  workspaces: Workspace[];
  tasks: Task[];
  profiles: AgentProfile[];
  pending: Question[];
}

/** The board: a workspace's tasks by state, each with its pending-action badges, and a new-task form. */
export function Board() {
  const [workspaceId, setWorkspaceId] = useState<string | undefined>();
  const [data, setData] = useState<BoardData | undefined>();
  const [error, setError] = useState<string | undefined>();

  const load = async () => {
    const { workspaces } = await ok(api.GET('/api/workspaces', { params: { query: { limit: 200 } } }));
    const current = workspaceId ?? workspaces[0]?.id;
    const [tasks, profiles, pending] = await Promise.all([
      current === undefined
        ? { tasks: [] }
        : ok(api.GET('/api/tasks', { params: { query: { workspace_id: current, limit: 200 } } })),
      ok(api.GET('/api/agent-profiles')),
      ok(api.GET('/api/questions', { params: { query: { state: 'pending' } } })),
    ]);
    if (current !== workspaceId) setWorkspaceId(current);
    setData({ workspaces, tasks: tasks.tasks, profiles: profiles.agent_profiles, pending: pending.questions });
  };
  const reload = () => {
    load().then(
      () => setError(undefined),
      (failure: unknown) => setError(String(failure)),
    );
  };
  useEffect(reload, [workspaceId]);
  useLiveEvents('', (event) => {
    if (/^(task|question|parent_question)\.|^poll$|^reset$/.test(event.type)) reload();
  });

  if (data === undefined) return <p class="muted">{error ?? 'Loading…'}</p>;
  return (
    <section>
      <div class="toolbar">
        <h1>Tasks</h1>
        {data.workspaces.length > 0 && (
          <select aria-label="Workspace" value={workspaceId} onChange={(e) => setWorkspaceId(e.currentTarget.value)}>
            {data.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        )}
      </div>
      {error !== undefined && <p class="error">{error}</p>}
      {workspaceId === undefined ? (
        <NewWorkspace onCreated={(id) => setWorkspaceId(id)} />
      ) : (
        <NewTask workspaceId={workspaceId} profiles={data.profiles} onCreated={reload} />
      )}
      <div class="board">
        {STATES.map((state) => (
          <div class="column" key={state} data-state={state}>
            <h2>{STATE_LABELS[state]}</h2>
            {data.tasks
              .filter((t) => t.state === state)
              .map((t) => (
                <TaskCard key={t.id} task={t} questions={data.pending.filter((q) => q.task_id === t.id).length} />
              ))}
          </div>
        ))}
      </div>
    </section>
  );
}

function TaskCard(props: { task: Task; questions: number }) {
  const { task } = props;
  return (
    <a class="card" href={`#/tasks/${encodeURIComponent(task.id)}`}>
      <span class="title">{task.title}</span>
      <span class="badges">
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
  const submit = (event: Event) => {
    event.preventDefault();
    void ok(api.POST('/api/workspaces', { body: { name: name.trim() } })).then((w) => props.onCreated(w.id));
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
        location.hash = `#/tasks/${encodeURIComponent(task.id)}`;
      },
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : String(failure)),
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
      {error !== undefined && <span class="error">{error}</span>}
    </form>
  );
}
