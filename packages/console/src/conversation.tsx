import type { Message } from './api';
import { isWarning, Plan, ToolCall } from './conversation-entries';
import { When } from './widgets';

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

/** The prompt an operator's entry queued (metadata.queued_prompt_id), if any. */
const promptOf = (m: Message): string | undefined =>
  typeof m.metadata.queued_prompt_id === 'string' ? m.metadata.queued_prompt_id : undefined;

/**
 * The task's conversation as recorded (operator prompts, agent replies, plans, tool calls, events),
 * live: an entry the agent streams is updated in place. Each entry names its session; a prompt still
 * waiting in a session's queue says so.
 */
export function Conversation(props: { messages: Message[]; promptStatus: ReadonlyMap<string, string> }) {
  return (
    <section class="panel" aria-labelledby="conversation-heading">
      <h2 id="conversation-heading">Conversation</h2>
      {props.messages.length === 0 && <p class="muted">Nothing said yet.</p>}
      <ol class="conversation" aria-live="polite" aria-relevant="additions">
        {props.messages.map((m) => {
          const prompt = promptOf(m);
          const queued = prompt !== undefined && props.promptStatus.get(prompt) === 'queued';
          return (
            <li
              key={m.id}
              class={`message ${m.author === 'operator' ? 'operator' : m.author === 'agent' ? 'agent' : 'other'}${
                isWarning(m) ? ' warning' : ''
              }${queued ? ' queued' : ''}`}
              data-type={m.type}
            >
              <div class="meta">
                <span>{m.author}</span>
                {m.type !== 'message' && <span class="badge">{m.type.replace('_', ' ')}</span>}
                {isWarning(m) && <span class="badge attention">warning</span>}
                {queued && (
                  <span class="badge tone-wait" data-testid="queued">
                    queued, not delivered yet
                  </span>
                )}
                {m.session_id !== null && <span data-testid="entry-session">session {m.session_id.slice(0, 8)}</span>}
                <When iso={m.created_at} />
              </div>
              <Content message={m} />
            </li>
          );
        })}
      </ol>
    </section>
  );
}
