import { useState } from 'preact/hooks';
import {
  api,
  archiveTask,
  type Message,
  type MrLink,
  ok,
  type ParentQuestion,
  type PrLink,
  type Question,
  removeSource,
  type Repository,
  type SessionSummary,
  sessionPrompts,
  setTaskState,
  type Task,
  unarchiveTask,
} from './api';
import { Conversation } from './conversation';
import { describeError } from './errors';
import { messageOf, upsertMessage, useLiveEvents } from './live';
import { OperatorQuestions, ParentQuestions } from './questions';
import { useResource } from './resource';
import { Reviews } from './reviews';
import { Timeline, touchesTimeline } from './timeline';
import { latestSession, Sessions } from './sessions';
import { ActionButton, FINISHED, NotFound, StateBadge, Status } from './widgets';

export interface TaskData {
  task: Task;
  repositories: Repository[];
  sessions: SessionSummary[];
  messages: Message[];
  questions: Question[];
  parentQuestions: ParentQuestion[];
  prs: PrLink[];
  mrs: MrLink[];
  /** Each live session's prompts by id: their status (queued, dispatched, ...). */
  promptStatus: Map<string, string>;
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

async function promptStatuses(sessions: SessionSummary[]): Promise<Map<string, string>> {
  const live = sessions.filter((s) => !FINISHED.has(s.state));
  const lists = await Promise.all(live.map((s) => sessionPrompts(s.id).then((r) => r.items)));
  return new Map(lists.flat().map((p) => [p.id, p.status]));
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
    promptStatus: await promptStatuses(sessions.sessions),
  };
}

const STATES: Task['state'][] = ['todo', 'in_progress', 'review', 'done'];

/** One task: questions, the conversation, sessions (with actions and tools), sources and reviews. */
export function TaskPage(props: { id: string }) {
  const page = useResource(props.id, loadTask);
  // Bumped on every live event of this task: children that read more (tools, lifecycle) re-read then.
  const [tick, setTick] = useState(0);
  // Bumped on the events that change the timeline (not on streamed text): it re-reads then.
  const [timelineTick, setTimelineTick] = useState(0);
  useLiveEvents(`task_id=${encodeURIComponent(props.id)}`, (event) => {
    if (touchesTimeline(event)) setTimelineTick((n) => n + 1);
    // A conversation entry (a streaming reply: many a second) is applied in place, without a re-read;
    // while a read is in flight it could overwrite the change, so the page reads again after it.
    const message = messageOf(event);
    if (message !== undefined && !page.loading.current) {
      page.update((current) => ({ ...current, messages: upsertMessage(current.messages, message) }));
      // A session event (an agent notice, an exit) may come with a new last error: the session panel re-reads.
      if (message.type === 'session_event') setTick((n) => n + 1);
      return;
    }
    setTick((n) => n + 1);
    page.reload();
  });
  const reload = () => {
    setTick((n) => n + 1);
    page.reload();
  };

  if (page.notFound) return <NotFound what={`There is no task ${props.id}.`} />;
  const data = page.data;
  if (data === undefined) return <Status error={page.error}>Loading…</Status>;
  const { task } = data;
  const latest = latestSession(data.sessions);
  return (
    <section class="task">
      <div class="toolbar">
        <h1>{task.title}</h1>
        <span class="badge" data-testid="task-state">
          {task.state}
        </span>
        {task.autopilot && <span class="badge">autopilot</span>}
        {task.pending_action !== null && <span class="badge attention">{task.pending_action}</span>}
        {task.archived_at !== null && <span class="badge tone-off">archived</span>}
        {latest !== undefined && (
          <span>
            latest session <StateBadge state={latest.state} testId="latest-session-state" />
          </span>
        )}
      </div>
      <Status error={page.error} />
      <TaskActions task={task} onChanged={reload} />
      <div class="columns">
        <div>
          <div aria-live="polite">
            <OperatorQuestions questions={data.questions} onAnswered={reload} />
          </div>
          <Conversation messages={data.messages} promptStatus={data.promptStatus} />
          <Sessions task={task} sessions={data.sessions} tick={tick} onChanged={reload} />
          <Timeline taskId={task.id} tick={timelineTick} />
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

function TaskActions(props: { task: Task; onChanged: () => void }) {
  const { task } = props;
  const [moveError, setMoveError] = useState<string | undefined>();
  const move = (state: Task['state']) => {
    setTaskState(task.id, state).then(
      () => {
        setMoveError(undefined);
        props.onChanged();
      },
      (failure: unknown) => setMoveError(describeError(failure)),
    );
  };
  const after = (run: () => Promise<unknown>) => () => run().finally(props.onChanged);
  return (
    <div class="actions" role="group" aria-label="Task actions">
      <label>
        Move to{' '}
        <select value={task.state} onChange={(e) => move(e.currentTarget.value as Task['state'])}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      {task.archived_at === null ? (
        <ActionButton
          label="Archive task"
          confirm="Archive this task and stop its sessions?"
          done="Archived."
          run={after(() => archiveTask(task.id))}
        />
      ) : (
        <ActionButton label="Unarchive task" done="Unarchived." run={after(() => unarchiveTask(task.id))} />
      )}
      <Status error={moveError} />
    </div>
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
      (failure: unknown) => setError(describeError(failure)),
    );
  };
  return (
    <section class="panel" aria-labelledby="repositories-heading">
      <h2 id="repositories-heading">Repositories</h2>
      <p>
        Providers:{' '}
        <span data-testid="providers">
          {props.task.providers.length === 0 ? 'none' : props.task.providers.join(', ')}
        </span>
      </p>
      <ul class="plain">
        {props.repositories.map((r) => (
          <li key={r.id} data-repository={r.id}>
            <code class="clip">{r.remote_url ?? r.local_path ?? r.id}</code>{' '}
            {r.provider !== null && <span class="badge">{r.provider}</span>}{' '}
            <ActionButton
              label="Remove source"
              confirm="Detach this repository from the task?"
              run={() => removeSource(props.task.id, r.id).finally(props.onChanged)}
            />
          </li>
        ))}
      </ul>
      <form class="inline" onSubmit={add} data-needs="operate">
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
      <Status error={error} />
    </section>
  );
}
