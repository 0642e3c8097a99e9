import { useEffect, useRef, useState } from 'preact/hooks';
import {
  api,
  ApiError,
  type Message,
  type MrLink,
  ok,
  type ParentQuestion,
  type PrLink,
  type Question,
  type Repository,
  type SessionSummary,
  type Task,
} from './api';
import { Conversation } from './conversation';
import { Reviews } from './reviews';
import { OperatorQuestions, ParentQuestions } from './questions';
import { Sessions } from './sessions';
import { messageOf, upsertMessage, useLiveEvents } from './live';

export interface TaskData {
  task: Task;
  repositories: Repository[];
  sessions: SessionSummary[];
  messages: Message[];
  questions: Question[];
  parentQuestions: ParentQuestion[];
  prs: PrLink[];
  mrs: MrLink[];
}

/** Every page of the task's conversation (oldest first), a few hundred entries at most. */
async function allMessages(taskId: string): Promise<Message[]> {
  const messages: Message[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10; page++) {
    const query: { limit: number; cursor?: string } = { limit: 200, ...(cursor === null ? {} : { cursor }) };
    const body = await ok(api.GET('/api/tasks/{id}/messages', { params: { path: { id: taskId }, query } }));
    messages.push(...body.messages);
    cursor = body.next_cursor;
    if (cursor === null) break;
  }
  return messages;
}

async function loadTask(id: string): Promise<TaskData> {
  const path = { id };
  const task = await ok(api.GET('/api/tasks/{id}', { params: { path } }));
  const [repositories, sessions, messages, questions, parents, prs, mrs] = await Promise.all([
    Promise.all(task.repository_ids.map((r) => ok(api.GET('/api/repositories/{id}', { params: { path: { id: r } } })))),
    ok(api.GET('/api/tasks/{id}/sessions', { params: { path, query: { limit: 200 } } })),
    allMessages(id),
    ok(api.GET('/api/questions', { params: { query: { state: 'pending', task_id: id } } })),
    ok(api.GET('/api/tasks/{id}/parent-questions', { params: { path } })),
    ok(api.GET('/api/tasks/{id}/prs', { params: { path } })),
    ok(api.GET('/api/tasks/{id}/mrs', { params: { path } })),
  ]);
  return {
    task,
    repositories,
    sessions: sessions.sessions,
    messages,
    questions: questions.questions,
    parentQuestions: parents.parent_questions,
    prs: prs.prs,
    mrs: mrs.mrs,
  };
}

/** One task: its sources and providers, sessions (with tools), conversation, questions and reviews. */
export function TaskPage(props: { id: string }) {
  const [data, setData] = useState<TaskData | undefined>();
  const [error, setError] = useState<string | undefined>();
  // Bumped on every live event of this task: children that read more (tools, lifecycle) re-read then.
  const [tick, setTick] = useState(0);

  // Events come in bursts (a streaming reply): one read at a time, and one more after it if any came.
  const loading = useRef(false);
  const again = useRef(false);
  const reload = () => {
    if (loading.current) {
      again.current = true;
      return;
    }
    loading.current = true;
    loadTask(props.id)
      .then(
        (loaded) => {
          setData(loaded);
          setError(undefined);
        },
        (failure: unknown) => setError(String(failure)),
      )
      .finally(() => {
        loading.current = false;
        if (again.current) {
          again.current = false;
          reload();
        }
      });
  };
  useEffect(reload, [props.id]);
  useLiveEvents(`task_id=${encodeURIComponent(props.id)}`, (event) => {
    // A conversation entry (a streaming reply: many a second) is applied in place, without a re-read;
    // while a read is in flight it could overwrite the change, so the page reads again after it.
    const message = messageOf(event);
    if (message !== undefined && !loading.current) {
      setData((current) => current && { ...current, messages: upsertMessage(current.messages, message) });
      // A session event (an agent notice, an exit) may come with a new last error: the session panel re-reads.
      if (message.type === 'session_event') setTick((n) => n + 1);
      return;
    }
    setTick((n) => n + 1);
    reload();
  });

  if (data === undefined) return <p class="muted">{error ?? 'Loading…'}</p>;
  const { task } = data;
  return (
    <section class="task">
      <div class="toolbar">
        <h1>{task.title}</h1>
        <span class="badge" data-testid="task-state">
          {task.state}
        </span>
        {task.autopilot && <span class="badge">autopilot</span>}
        {task.pending_action !== null && <span class="badge attention">{task.pending_action}</span>}
      </div>
      {error !== undefined && <p class="error">{error}</p>}
      <div class="columns">
        <div>
          <OperatorQuestions questions={data.questions} onAnswered={reload} />
          <Sessions task={task} sessions={data.sessions} tick={tick} onLaunched={reload} />
          <Conversation messages={data.messages} />
        </div>
        <aside>
          <Sources task={task} repositories={data.repositories} onChanged={reload} />
          <ParentQuestions questions={data.parentQuestions} />
          <Reviews taskId={task.id} prs={data.prs} mrs={data.mrs} repositories={data.repositories} tick={tick} />
        </aside>
      </div>
    </section>
  );
}

function Sources(props: { task: Task; repositories: Repository[]; onChanged: () => void }) {
  const [remote, setRemote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const add = (event: Event) => {
    event.preventDefault();
    ok(
      api.POST('/api/tasks/{id}/workspace-sources', {
        params: { path: { id: props.task.id } },
        body: { sources: [{ remote_url: remote.trim() }] },
      }),
    ).then(
      () => {
        setRemote('');
        setError(undefined);
        props.onChanged();
      },
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : String(failure)),
    );
  };
  return (
    <section class="panel" aria-label="Repositories">
      <h2>Repositories</h2>
      <p>
        Providers:{' '}
        <span data-testid="providers">
          {props.task.providers.length === 0 ? 'none' : props.task.providers.join(', ')}
        </span>
      </p>
      <ul class="plain">
        {props.repositories.map((r) => (
          <li key={r.id}>
            <code>{r.remote_url ?? r.local_path ?? r.id}</code>{' '}
            {r.provider !== null && <span class="badge">{r.provider}</span>}
          </li>
        ))}
      </ul>
      <form class="inline" onSubmit={add}>
        <input
          aria-label="Repository remote URL"
          placeholder="https://github.com/owner/repo.git"
          value={remote}
          onInput={(e) => setRemote(e.currentTarget.value)}
        />
        <button type="submit" disabled={remote.trim() === ''}>
          Add source
        </button>
      </form>
      {error !== undefined && <p class="error">{error}</p>}
    </section>
  );
}
