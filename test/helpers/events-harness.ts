// GET /api/events over the backend's real routers, auth middleware and Host/Origin guard on a loopback
// port (services in process over real SQLite, the fake agentctl attached): REST calls with the operator
// token, and streams opened with the SSE helper.
import {
  createApp,
  createAuthMiddleware,
  createInProcessBackend,
  ENDPOINT,
  EVENT_LOG_DEFAULTS,
  type EventLogConfig,
  FakeAgentctl,
  fakeAgentctlPort,
  listen,
} from '@kandev/backend/testing';
import { BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';
import { type OpenStreamOptions, SseStream } from './sse';

export const EVENTS_TOKEN = 'events-test-token-0123456789abcdef';

export interface EventsHarnessOptions {
  events?: Partial<EventLogConfig>;
  timeouts?: { headersMs: number; requestMs: number; keepAliveMs: number };
}

export async function createEventsHarness(cleanup: Cleanup, options: EventsHarnessOptions = {}) {
  const agentctl = new FakeAgentctl();
  const env = await createInProcessBackend(cleanup, {
    agentctl: fakeAgentctlPort(agentctl),
    config: {
      apiToken: { token: EVENTS_TOKEN, source: 'the test' },
      events: { ...EVENT_LOG_DEFAULTS, ...options.events },
    },
  });
  const { backend } = env;
  agentctl.attach((event) => void backend.turns.events.handle(event, ENDPOINT.grpcAddress));
  const app = createApp(env.logger, backend.routers, { auth: createAuthMiddleware(backend.tokens) });
  const server = await listen(app, '127.0.0.1', 0, options.timeouts);
  // Streams are ended before the server waits for its open responses.
  cleanup.defer(() => server.close());
  cleanup.defer(() => backend.eventStreams.closeAll());
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const api = new BackendApi(baseUrl, EVENTS_TOKEN);

  /** Opens GET /api/events`query` with the operator token (unless the options say otherwise). */
  const stream = (query = '', streamOptions: OpenStreamOptions = {}) =>
    SseStream.open(`${baseUrl}/api/events${query}`, cleanup, { token: EVENTS_TOKEN, ...streamOptions });

  /** A workspace, an agent profile the fake runs, and a task using it; resolves their ids. */
  async function agentTask(title = 'events'): Promise<{ workspaceId: string; taskId: string }> {
    const workspaceId = await api.workspace(`ws-${title}`);
    const profile = await api.create<{ id: string }>('/api/agent-profiles', {
      name: `agent-${title}`,
      command: 'test-agent',
      supports_mcp: true,
    });
    const task = await api.task(workspaceId, { title, agent_profile_id: profile.id });
    return { workspaceId, taskId: task.id };
  }

  return { env, backend, agentctl, api, baseUrl, stream, agentTask };
}

export type EventsHarness = Awaited<ReturnType<typeof createEventsHarness>>;
