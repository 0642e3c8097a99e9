import { useEffect, useState } from 'preact/hooks';
import {
  api,
  cancelPrompt,
  cancelTurn,
  ok,
  type QueuedPrompt,
  relaunchSession,
  resumeSession,
  type SessionAgent,
  type SessionRead,
  type SessionSummary,
  type SessionTools,
  sessionPrompts,
  sessionTools,
  stopSession,
} from './api';
import { describeError } from './errors';
import { ActionButton, FINISHED, StateBadge, Status, When } from './widgets';

interface Read {
  tools: SessionTools | undefined;
  detail: SessionRead | undefined;
  prompts: QueuedPrompt[];
  error: string | undefined;
}

/** One session: its state with why it failed, its actions, prompt box and queue, and its tools (collapsed). */
export function SessionDetail(props: {
  session: SessionSummary;
  tick: number;
  onChanged: () => void;
  /** The new session a relaunch made: the page shows it instead of this one. */
  onRelaunched: (sessionId: string) => void;
}) {
  const [read, setRead] = useState<Read | undefined>();
  const { id, state, revision, applied_revision: applied } = props.session;
  useEffect(() => {
    let live = true;
    const settle = <T,>(p: Promise<T>) =>
      p.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
    void Promise.all([
      settle(sessionTools(id)),
      settle(ok(api.GET('/api/sessions/{id}', { params: { path: { id } } }))),
      settle(sessionPrompts(id)),
    ]).then(([tools, detail, prompts]) => {
      if (!live) return;
      const failure = [tools, detail, prompts].find((r): r is { error: unknown } => 'error' in r);
      setRead({
        tools: 'value' in tools ? tools.value : undefined,
        detail: 'value' in detail ? detail.value : undefined,
        prompts: 'value' in prompts ? prompts.value.items : [],
        error: failure === undefined ? undefined : describeError(failure.error),
      });
    });
    return () => {
      live = false;
    };
  }, [id, state, revision, applied, props.tick]);

  const detail = read?.detail;
  const agent = detail?.agent ?? undefined;
  const finished = FINISHED.has(state);
  const turnRunning = agent?.current_prompt_id != null || agent?.status === 'prompting';
  const queued = (read?.prompts ?? []).filter((p) => p.status === 'queued');
  const act = (run: () => Promise<unknown>) => () => run().finally(props.onChanged);
  return (
    <div class="session" data-session={id}>
      <div class="session-status" data-testid="session-status">
        <StateBadge state={state} testId="chosen-session-state" />
        {detail?.last_error != null && (
          <span class="error-text" data-testid="session-last-error">
            {detail.last_error}
          </span>
        )}
        {detail?.refresh_error != null && (
          <span class="error-text" data-testid="session-refresh-error">
            provider update failed: {detail.refresh_error}
          </span>
        )}
        {agent?.exit_reason != null && !(detail?.last_error ?? '').includes(agent.exit_reason) && (
          <span class="error-text" data-testid="session-exit-reason">
            agent exited: {agent.exit_reason}
          </span>
        )}
      </div>
      <Status error={read?.error} />
      <div class="actions" role="group" aria-label="Session actions">
        {!finished && (
          <ActionButton
            label="Cancel turn"
            done="Turn cancelled."
            disabled={!turnRunning}
            run={act(() => cancelTurn(id))}
          />
        )}
        {!finished && (
          <ActionButton
            label="Stop session"
            confirm="Stop this session and its agent?"
            done="Session stopped."
            run={act(() => stopSession(id))}
          />
        )}
        {(finished || state === 'waiting_for_input') && (
          <ActionButton label="Resume session" done="Session resumed." run={act(() => resumeSession(id))} />
        )}
        {finished && (
          <ActionButton
            label="Relaunch session"
            run={act(() => relaunchSession(id).then((relaunched) => props.onRelaunched(relaunched.session_id)))}
          />
        )}
      </div>
      {agent !== undefined && <AgentLine agent={agent} />}
      {!finished && <PromptBox sessionId={id} onSent={props.onChanged} />}
      {queued.length > 0 && (
        <section aria-label="Queued prompts">
          <h3>Queued prompts ({queued.length})</h3>
          <ul class="plain">
            {queued.map((p) => (
              <li key={p.id} class="queued" data-prompt={p.id}>
                <span class="badge tone-wait">queued</span> <When iso={p.created_at} />{' '}
                <span class="clip">{p.prompt}</span>{' '}
                <ActionButton
                  label="Cancel prompt"
                  confirm="Drop this prompt from the queue?"
                  done="Cancelled."
                  run={act(() => cancelPrompt(id, p.id))}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
      {read?.tools !== undefined && <Tools tools={read.tools} finished={finished} state={state} />}
    </div>
  );
}

/** The session's tools, collapsed (a long list would push the conversation away on a phone). */
function Tools(props: { tools: SessionTools; finished: boolean; state: string }) {
  const { tools } = props;
  return (
    <details class="tools-panel">
      <summary>
        {props.finished ? 'Tools it was configured with' : 'Tools'} (
        <span data-testid="tool-count">{tools.tools.length}</span>)
        {props.finished && <span class="muted"> · not served: the session is {props.state}</span>}
        {!props.finished && tools.tools_from === 'launch_config' && (
          <span class="muted"> · as configured (agentctl not asked)</span>
        )}
        {tools.agentctl !== undefined && !tools.agentctl.reachable && (
          <span class="badge tone-bad">agentctl unreachable</span>
        )}
      </summary>
      <p>
        Question capability: <strong data-testid="question-capability">{tools.question_capability}</strong> · providers:{' '}
        <span data-testid="session-providers">{tools.providers.join(', ') || 'none'}</span> · revision {tools.revision}{' '}
        (applied {tools.applied_revision ?? '–'})
      </p>
      <ul class="tools" aria-label="Tools" data-served={String(!props.finished)}>
        {tools.tools.map((tool) => (
          <li key={tool.name} data-tool={tool.name}>
            <details>
              <summary>
                <code>{tool.name}</code>{' '}
                {tool.description !== undefined && tool.description !== '' && (
                  <span class="muted">{tool.description}</span>
                )}
              </summary>
              <pre tabIndex={0}>{JSON.stringify(tool.input_schema ?? {}, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ul>
    </details>
  );
}

function PromptBox(props: { sessionId: string; onSent: () => void }) {
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<string | undefined>();
  const send = (event: Event) => {
    event.preventDefault();
    ok(api.POST('/api/sessions/{id}/prompts', { params: { path: { id: props.sessionId } }, body: { prompt } })).then(
      () => {
        setPrompt('');
        setError(undefined);
        props.onSent();
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  };
  return (
    <form class="prompt" onSubmit={send} data-needs="operate">
      <textarea
        aria-label="Prompt"
        placeholder="Tell the agent…"
        rows={3}
        value={prompt}
        onInput={(e) => setPrompt(e.currentTarget.value)}
      />
      <button type="submit" disabled={prompt.trim() === ''}>
        Send prompt
      </button>
      <Status error={error} />
    </form>
  );
}

const DELIVERY: Record<string, string> = {
  spec_append: 'appended to the agent’s own',
  first_prompt: 'sent with the first prompt',
  kept: 'kept by the resumed session',
  none: 'not delivered',
};

/** The agent process and what its handshake set up: mode, system prompt, MCP connection. */
function AgentLine(props: { agent: SessionAgent }) {
  const { status, pid, mode_id: mode, system_prompt_delivery: delivery, mcp_connected: mcp } = props.agent;
  const handshakeDone = status === 'ready' || status === 'prompting';
  return (
    <p data-testid="session-agent">
      Agent: <strong>{status}</strong>
      {pid !== null && <> · pid {pid}</>}
      {mode != null && (
        <>
          {' '}
          · mode <code>{mode}</code>
        </>
      )}
      {delivery !== undefined && handshakeDone && <> · system prompt {DELIVERY[delivery] ?? delivery}</>}
      {mcp === true && <span class="badge">MCP connected</span>}
      {mcp === false && handshakeDone && <span class="badge attention">no MCP connection: no kandev tools</span>}
    </p>
  );
}
