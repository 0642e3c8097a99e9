import { useState } from 'preact/hooks';
import { api, ApiError, ok, type ParentQuestion, type Question, type QuestionItem } from './api';

type Answer = { question_index: number; option: string } | { question_index: number; text: string };

/** Pending operator questions: each option is a button; free-text questions get a field. */
export function OperatorQuestions(props: { questions: Question[]; onAnswered: () => void }) {
  if (props.questions.length === 0) return null;
  return (
    <section class="panel attention" aria-label="Questions for you">
      <h2>Questions for you</h2>
      {props.questions.map((q) => (
        <PendingQuestion key={q.id} question={q} onAnswered={props.onAnswered} />
      ))}
    </section>
  );
}

function PendingQuestion(props: { question: Question; onAnswered: () => void }) {
  const { question } = props;
  const [answers, setAnswers] = useState<Record<number, Answer>>({});
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = (all: Record<number, Answer>) => {
    setBusy(true);
    ok(
      api.POST('/api/questions/{id}/answer', {
        params: { path: { id: question.id } },
        body: { answers: Object.values(all) },
      }),
    ).then(
      () => props.onAnswered(),
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof ApiError ? failure.message : String(failure));
      },
    );
  };
  // A click answers the question at once when it completes the set (one answer per question).
  const choose = (index: number, answer: Answer) => {
    const next = { ...answers, [index]: answer };
    setAnswers(next);
    if (Object.keys(next).length === question.questions.length) submit(next);
  };

  return (
    <div class="question" data-question={question.id}>
      {question.kind === 'permission' && (
        <p>
          <strong>Permission request</strong> <span class="muted">(no answer in time rejects it)</span>
        </p>
      )}
      {question.context !== null && <p class="muted">{question.context}</p>}
      {question.questions.map((item, index) => (
        <QuestionRow
          key={index}
          item={item}
          chosen={answers[index]}
          busy={busy}
          onAnswer={(a) => choose(index, { question_index: index, ...a })}
        />
      ))}
      {error !== undefined && <p class="error">{error}</p>}
    </div>
  );
}

function QuestionRow(props: {
  item: QuestionItem;
  chosen: Answer | undefined;
  busy: boolean;
  onAnswer: (answer: { option: string } | { text: string }) => void;
}) {
  const [text, setText] = useState('');
  const options = props.item.options ?? [];
  const chosenOption = props.chosen !== undefined && 'option' in props.chosen ? props.chosen.option : undefined;
  return (
    <div class="question-item">
      <p>{props.item.prompt}</p>
      {options.length > 0 ? (
        <div class="options" data-needs="operate">
          {options.map((o) => (
            <button
              type="button"
              key={o.label}
              title={o.description}
              disabled={props.busy}
              aria-pressed={chosenOption === o.label}
              onClick={() => props.onAnswer({ option: o.label })}
            >
              {o.label}
            </button>
          ))}
        </div>
      ) : (
        <form
          class="inline"
          data-needs="operate"
          onSubmit={(e) => {
            e.preventDefault();
            props.onAnswer({ text: text.trim() });
          }}
        >
          <input aria-label="Answer" value={text} onInput={(e) => setText(e.currentTarget.value)} />
          <button type="submit" disabled={props.busy || text.trim() === ''}>
            Answer
          </button>
        </form>
      )}
    </div>
  );
}

/** The task's questions to its parent task (autopilot), with their status. */
export function ParentQuestions(props: { questions: ParentQuestion[] }) {
  if (props.questions.length === 0) return null;
  return (
    <section class="panel" aria-label="Questions to the parent">
      <h2>Questions to the parent</h2>
      <ul class="plain">
        {props.questions.map((q) => (
          <li key={q.id}>
            <span class={`badge ${q.status === 'pending' ? 'attention' : ''}`}>{q.status}</span>{' '}
            {q.questions.map((item) => item.prompt).join(' · ')}
          </li>
        ))}
      </ul>
    </section>
  );
}
