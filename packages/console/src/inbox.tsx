import { api, ok, type Question } from './api';
import { useLiveEvents } from './live';
import { OperatorQuestions } from './questions';
import { useResource } from './resource';
import { taskHref } from './route';
import { Status, When } from './widgets';

type Answered = Question;

interface Inbox {
  pending: Question[];
  answered: Answered[];
  titles: Map<string, string>;
}

async function loadInbox(): Promise<Inbox> {
  const [pending, answered] = await Promise.all([
    ok(api.GET('/api/questions', { params: { query: { state: 'pending' } } })),
    ok(api.GET('/api/questions', { params: { query: { state: 'answered' } } })),
  ]);
  const recent = answered.questions.slice(-20).reverse();
  const ids = [...new Set([...pending.questions, ...recent].map((q) => q.task_id))];
  const tasks = await Promise.all(
    ids.map((id) => ok(api.GET('/api/tasks/{id}', { params: { path: { id } } })).catch(() => undefined)),
  );
  const titles = new Map(tasks.flatMap((t) => (t === undefined ? [] : [[t.id, t.title] as [string, string]])));
  return { pending: pending.questions, answered: recent, titles };
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
      {data.answered.length === 0 && <p class="muted">None yet.</p>}
      <ul class="plain">
        {data.answered.map((q) => (
          <li key={q.id}>
            <a href={taskHref(q.task_id)}>{data.titles.get(q.task_id) ?? q.task_id}</a>:{' '}
            {q.questions.map((item) => item.prompt).join(' · ')} <span class="muted">→ {summary(q.answers)}</span>{' '}
            {q.answered_by != null && <span class="muted">by {q.answered_by}</span>}{' '}
            <When iso={q.answered_at ?? q.created_at} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** An answer set in a line: the options chosen and texts given. */
function summary(answers: unknown): string {
  if (!Array.isArray(answers)) return 'answered';
  return answers
    .map((a: unknown) => {
      const answer = (a ?? {}) as { option?: unknown; text?: unknown };
      return typeof answer.option === 'string' ? answer.option : typeof answer.text === 'string' ? answer.text : '?';
    })
    .join(', ');
}
