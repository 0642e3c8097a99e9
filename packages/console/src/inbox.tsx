import { api, ok, type Question } from './api';
import { useLiveEvents } from './live';
import { OperatorQuestions } from './questions';
import { useResource } from './resource';
import { taskHref } from './route';
import { answerText } from './timeline';
import { Status, When } from './widgets';

type Counts = Record<Question['state'], number>;

interface Inbox {
  pending: Question[];
  answered: Question[];
  counts: Counts;
  titles: Map<string, string>;
}

/** Answered questions shown, newest first. */
const RECENT = 20;

/** GET /api/questions stops each count at 1000: that many or more. */
const COUNT_CAP = 1000;
const countText = (count: number) => (count >= COUNT_CAP ? `${COUNT_CAP}+` : String(count));

/** The pending questions (oldest first: every page is read, up to 2,000), and the counts. */
async function allPending(): Promise<{ questions: Question[]; counts: Counts }> {
  const state = 'pending' as const;
  const questions: Question[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const query = { state, limit: 200, ...(cursor === undefined ? {} : { cursor }) };
    const body = await ok(api.GET('/api/questions', { params: { query } }));
    questions.push(...body.questions);
    if (body.next_cursor === null) return { questions, counts: body.counts };
    cursor = body.next_cursor;
  }
  const counts = (await ok(api.GET('/api/questions', { params: { query: { limit: 1 } } }))).counts;
  return { questions, counts };
}

async function loadInbox(): Promise<Inbox> {
  // The latest answered ones are one page read newest first; the counts ignore `state`, so either has them.
  const latest = { state: 'answered', sort: 'created_desc', limit: RECENT } as const;
  const [pending, answered] = await Promise.all([
    allPending(),
    ok(api.GET('/api/questions', { params: { query: latest } })),
  ]);
  const recent = answered.questions;
  const ids = [...new Set([...pending.questions, ...recent].map((q) => q.task_id))];
  const tasks = await Promise.all(
    ids.map((id) => ok(api.GET('/api/tasks/{id}', { params: { path: { id } } })).catch(() => undefined)),
  );
  const titles = new Map(tasks.flatMap((t) => (t === undefined ? [] : [[t.id, t.title] as [string, string]])));
  return { pending: pending.questions, answered: recent, counts: answered.counts, titles };
}

/** Every question waiting for the operator, by task, answerable here; and the latest answered ones. */
export function Inbox() {
  const inbox = useResource('inbox', loadInbox);
  useLiveEvents('type=question.created&type=question.answered&type=question.closed', inbox.reload);
  const data = inbox.data;
  if (data === undefined) return <Status error={inbox.error}>Loading…</Status>;
  const byTask = new Map<string, Question[]>();
  for (const q of data.pending) byTask.set(q.task_id, [...(byTask.get(q.task_id) ?? []), q]);
  return (
    <section>
      <h1>Questions</h1>
      <Status error={inbox.error} />
      <p aria-live="polite" data-testid="inbox-count">
        {data.pending.length} waiting for you
        {byTask.size > 0 ? `, in ${byTask.size} task${byTask.size > 1 ? 's' : ''}` : ''}.
      </p>
      <div aria-live="polite">
        {[...byTask].map(([taskId, questions]) => (
          <div key={taskId} class="inbox-task">
            <h2>
              <a href={taskHref(taskId)}>{data.titles.get(taskId) ?? taskId}</a>{' '}
              <span class="badge attention">{questions.length}</span>
            </h2>
            <OperatorQuestions questions={questions} onAnswered={inbox.reload} />
          </div>
        ))}
      </div>
      <h2>Answered lately</h2>
      <p class="muted" data-testid="question-counts">
        {countText(data.counts.answered)} answered · {countText(data.counts.expired)} expired ·{' '}
        {countText(data.counts.cancelled)} cancelled
      </p>
      {data.answered.length === 0 && <p class="muted">None yet.</p>}
      <ul class="plain answered">
        {data.answered.map((q) => (
          <li key={q.id} data-question={q.id}>
            <a href={taskHref(q.task_id)}>{data.titles.get(q.task_id) ?? q.task_id}</a>:{' '}
            {q.kind === 'permission' ? 'Permission request: ' : ''}
            {q.questions.map((item) => item.prompt).join(' · ')}{' '}
            <span data-testid="answer">
              → {answerText(q.answers)}
              {q.answered_by !== null && <> by {q.answered_by}</>}
            </span>{' '}
            at <When iso={q.answered_at ?? q.created_at} />
          </li>
        ))}
      </ul>
    </section>
  );
}
