// GET /api/events against the real backend process (its own agentctl, the scripted test agent as the
// task's agent, MCP tools served by agentctl): a live stream sees tools.changed when a workspace source
// adds a provider and message.created for a prompt; a stream that disconnects and reconnects with its
// Last-Event-ID gets exactly the events it missed (compared with a witness stream that never left).
// Every wait is for an event, never a sleep.
import { AgentRuntimeApi } from '../../helpers/agent-runtime';
import { useCleanup } from '../../helpers/cleanup';
import { LiveApi, MR_PAIR, startLiveBackend } from '../../helpers/live-updates';
import { SseStream, type StreamEvent } from '../../helpers/sse';

const TIMEOUT_MS = 20_000;

describe('live events over HTTP (real backend and agentctl)', () => {
  const cleanup = useCleanup();

  test('tools.changed and message.created live; a reconnect with Last-Event-ID gets exactly what it missed', async () => {
    const { backend, api, workspaceId } = await startLiveBackend(cleanup);
    const runtime = new AgentRuntimeApi(api, cleanup, backend.logs);
    const open = (query: string, lastEventId?: string) =>
      SseStream.open(`${backend.ready.url}/api/events${query}`, cleanup, {
        token: backend.apiToken,
        lastEventId,
        timeoutMs: TIMEOUT_MS,
      });
    const profileId = await runtime.profile('runtime');
    const task = await api.task(workspaceId, { title: 'events', agent_profile_id: profileId });
    // Both streams start at "now"; the witness never disconnects.
    const witness = await open('');
    const watcher = await open(`?task_id=${task.id}`);
    expect(watcher.status).toBe(200);

    const session = await api.launch(task.id);
    const sessionId = session.session_id;
    const isState = (state: string) => (e: StreamEvent) =>
      e.type === 'session.state_changed' && e.session_id === sessionId && e.data.state === state;
    await watcher.next(isState('waiting_for_input'), 'the agent to be ready');
    const launchTools = await watcher.next((e) => e.type === 'tools.changed', 'the launch tool list');
    expect(launchTools.data).toMatchObject({ revision: 1, providers: [], removed: [] });
    expect(launchTools.data.added).toEqual(expect.arrayContaining(['get_task_kandev']));

    // A GitLab source: agentctl applies revision 2 and the MR tools appear.
    const added = await new LiveApi(backend.ready.url, backend.apiToken).addSources(task.id, [
      { remote_url: 'https://gitlab.com/acme/web' },
    ]);
    expect(added.status).toBe(201);
    const changed = await watcher.next(
      (e) => e.type === 'tools.changed' && e.data.revision === 2,
      'tools.changed for revision 2',
    );
    expect(changed).toMatchObject({
      task_id: task.id,
      session_id: sessionId,
      data: { revision: 2, providers: ['gitlab'], removed: [] },
    });
    expect([...(changed.data.added as string[])].sort()).toEqual([...MR_PAIR].sort());
    expect(watcher.events.some((e) => e.type === 'task.updated')).toBe(true);

    // A prompt: the operator's message, then the agent's reply, as message.created.
    const first = await runtime.postPrompt(sessionId, 'hello over events');
    const operatorMessage = await watcher.next(
      (e) => e.type === 'message.created' && (e.data.message as { id: string }).id === first.message_id,
      "the operator's message",
    );
    expect(operatorMessage.data.message).toMatchObject({ author: 'operator', content: 'hello over events' });
    const reply = await watcher.next(
      (e) => e.type === 'message.created' && (e.data.message as { author: string }).author === 'agent',
      "the agent's reply",
    );
    expect((reply.data.message as { content: string }).content).toContain('got: hello over events');
    const indexOf = (stream: SseStream, event: StreamEvent) => stream.events.findIndex((e) => e.id === event.id);
    await watcher.next(isState('waiting_for_input'), 'the turn to end', indexOf(watcher, reply));

    // Disconnect; a second turn happens while the watcher is away.
    const lastSeen = watcher.lastEventId ?? '';
    watcher.close();
    // The witness reads the same log on its own stream: it may not have read that far yet.
    await witness.next((e) => e.id === lastSeen, 'the witness to reach the last event the watcher saw');
    const missedFrom = witness.events.findIndex((e) => e.id === lastSeen) + 1;
    const second = await runtime.postPrompt(sessionId, 'while you were away');
    const secondReply = await witness.next(
      (e) =>
        e.type === 'message.created' &&
        (e.data.message as { content: string }).content.includes('got: while you were away'),
      'the second reply',
    );
    await witness.next(isState('waiting_for_input'), 'the second turn to end', indexOf(witness, secondReply));
    const missed = witness.events.slice(missedFrom).filter((e) => e.task_id === task.id);
    expect(missed.map((e) => e.type)).toEqual(
      expect.arrayContaining(['message.created', 'queue.changed', 'session.state_changed']),
    );
    expect(missed.some((e) => (e.data.message as { id?: string } | undefined)?.id === second.message_id)).toBe(true);

    // Reconnect with Last-Event-ID: exactly the missed events, in order, then live ones.
    const resumed = await open(`?task_id=${task.id}`, lastSeen);
    const replayed = (await resumed.count(missed.length)).slice(0, missed.length);
    expect(replayed).toEqual(missed);
    expect(replayed.some((e) => e.type === 'reset')).toBe(false);
    const third = await runtime.postPrompt(sessionId, 'back again');
    const live = await resumed.next(
      (e) => e.type === 'message.created' && (e.data.message as { id: string }).id === third.message_id,
      'a live message after the replay',
    );
    expect(indexOf(resumed, live)).toBe(missed.length);
  });
});
