import type { Message } from './api';

const time = (iso: string): string => new Date(iso).toLocaleTimeString();

/** The task's conversation as recorded (operator prompts, agent replies, tool calls, events), live. */
export function Conversation(props: { messages: Message[] }) {
  return (
    <section class="panel" aria-label="Conversation">
      <h2>Conversation</h2>
      {props.messages.length === 0 && <p class="muted">Nothing said yet.</p>}
      <ol class="conversation">
        {props.messages.map((m) => (
          <li
            key={m.id}
            class={`message ${m.author === 'operator' ? 'operator' : m.author === 'agent' ? 'agent' : 'other'}`}
            data-type={m.type}
          >
            <div class="meta">
              <span>{m.author}</span>
              {m.type !== 'message' && <span class="badge">{m.type.replace('_', ' ')}</span>}
              <time dateTime={m.created_at}>{time(m.created_at)}</time>
            </div>
            <div class="content">{m.content}</div>
          </li>
        ))}
      </ol>
    </section>
  );
}
