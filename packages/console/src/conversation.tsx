import type { Message } from './api';
import { isWarning, Plan, ToolCall } from './conversation-entries';

const time = (iso: string): string => new Date(iso).toLocaleTimeString();

function Content(props: { message: Message }) {
  // Any other type (and one a newer backend adds) shows as its content.
  const type: string = props.message.type;
  switch (type) {
    case 'plan':
      return <Plan message={props.message} />;
    case 'tool_call':
      return <ToolCall message={props.message} />;
    default:
      return <div class="content">{props.message.content}</div>;
  }
}

/**
 * The task's conversation as recorded (operator prompts, agent replies, plans, tool calls, events),
 * live: an entry the agent streams is updated in place.
 */
export function Conversation(props: { messages: Message[] }) {
  return (
    <section class="panel" aria-label="Conversation">
      <h2>Conversation</h2>
      {props.messages.length === 0 && <p class="muted">Nothing said yet.</p>}
      <ol class="conversation">
        {props.messages.map((m) => (
          <li
            key={m.id}
            class={`message ${m.author === 'operator' ? 'operator' : m.author === 'agent' ? 'agent' : 'other'}${
              isWarning(m) ? ' warning' : ''
            }`}
            data-type={m.type}
          >
            <div class="meta">
              <span>{m.author}</span>
              {m.type !== 'message' && <span class="badge">{m.type.replace('_', ' ')}</span>}
              {isWarning(m) && <span class="badge attention">warning</span>}
              <time dateTime={m.created_at}>{time(m.created_at)}</time>
            </div>
            <Content message={m} />
          </li>
        ))}
      </ol>
    </section>
  );
}
