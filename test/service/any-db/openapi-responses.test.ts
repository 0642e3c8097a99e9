// Every response schema the OpenAPI document gives is held against a real answer: one walk through the
// backend's routes in process (real SQLite, no agentctl), each answer parsed with the route's own
// (strict) schema from the catalogue, so a view that gains, loses or renames a field fails here.
import type { z } from 'zod';
import {
  createApp,
  createAuthMiddleware,
  createInProcessBackend,
  FakeAgentctl,
  fakeAgentctlPort,
  type InProcessBackendOptions,
  launchConfigFor,
  listen,
  metricsRoute,
  ROUTE_GROUPS,
  type RouteDoc,
  sessionRow,
} from '@kandev/backend/testing';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const DOCS = new Map<string, RouteDoc>(
  ROUTE_GROUPS.flatMap((group) => group.routes.map((route) => [key(route.method, route.path), route])),
);

/**
 * Routes whose 2xx answer needs a running turn, an agent's pending question, a provider to ask or a
 * live stream (none in these walks). Their handlers build the answer as the documented schema's output type
 * (`z.output<typeof ...ViewSchema>`), so the compiler holds them to it.
 */
const ELSEWHERE = new Set(
  [
    'POST /api/sessions/{id}/cancel',
    'GET /api/questions/{id}',
    'POST /api/questions/{id}/answer',
    'GET /api/parent-questions/{id}',
    'POST /api/tasks/{id}/mrs/{mrId}/lifecycle/evaluate',
    'GET /api/events',
  ].map((route) => route.replace(/\{(\w+)\}/g, ':$1')),
);

/** Routes whose documented answer a test below parsed. */
const checked = new Set<string>();

/**
 * A backend as main.ts wires it on a loopback port, and `call`: requests `path` (an Express path,
 * `:name` filled from `params`), expects the documented status and parses the answer with its schema.
 */
async function serve(cleanup: Cleanup, options: InProcessBackendOptions = {}) {
  const { backend, logger } = await createInProcessBackend(cleanup, options);
  const app = createApp(logger, backend.routers, {
    auth: createAuthMiddleware(backend.tokens),
    policy: backend.policy,
    metrics: metricsRoute(backend.metrics.registry, logger),
    readiness: backend.readiness,
  });
  const server = await listen(app, '127.0.0.1', 0);
  cleanup.defer(() => server.close());
  const { token } = await backend.tokens.create('openapi responses');
  const base = `http://127.0.0.1:${server.port}`;
  const call = async (
    method: RouteDoc['method'],
    path: string,
    params: Record<string, string> = {},
    body?: unknown,
  ) => {
    const doc = DOCS.get(key(method, path));
    if (doc === undefined) throw new Error(`${key(method, path)} is not documented`);
    const url = path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
    const query =
      method === 'get' && body !== undefined
        ? `?${new URLSearchParams(body as Record<string, string>).toString()}`
        : '';
    const response = await fetch(`${base}${url}${query}`, {
      method: method.toUpperCase(),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(method === 'get' || body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const answer: unknown = doc.ok.contentType === undefined ? JSON.parse(text) : text;
    expect({ route: key(method, path), status: response.status }).toEqual({
      route: key(method, path),
      status: doc.ok.status,
    });
    const schema: z.ZodType | undefined = doc.ok.schema;
    if (schema !== undefined) {
      const parsed = schema.safeParse(answer);
      expect({ route: key(method, path), issues: parsed.error?.issues ?? [] }).toEqual({
        route: key(method, path),
        issues: [],
      });
      checked.add(key(method, path));
    }
    return answer as { id: string };
  };
  return { backend, base, call };
}

describe('OpenAPI response schemas', () => {
  const cleanup = useCleanup();

  test('every documented response schema matches what its route answers', async () => {
    const { backend, base, call } = await serve(cleanup);

    await call('get', '/healthz');
    const ws = await call('post', '/api/workspaces', {}, { name: 'w' });
    await call('get', '/api/workspaces', {}, { limit: '5' });
    await call('get', '/api/workspaces/:id', { id: ws.id });
    await call('put', '/api/workspaces/:id/credentials/:provider', { id: ws.id, provider: 'github' }, { token: 't' });
    await call('get', '/api/workspaces/:id/credentials', { id: ws.id });
    const repo = await call(
      'post',
      '/api/repositories',
      {},
      { workspace_id: ws.id, remote_url: 'https://github.com/o/r' },
    );
    await call('get', '/api/repositories/:id', { id: repo.id });
    await call('get', '/api/repositories', {}, { workspace_id: ws.id });
    const profile = await call('post', '/api/agent-profiles', {}, { name: 'p', command: 'agent', supports_mcp: true });
    await call('get', '/api/agent-profiles');
    await call('get', '/api/agent-profiles/:id', { id: profile.id });
    await call('patch', '/api/agent-profiles/:id', { id: profile.id }, { permission_policy: 'deny_all' });
    const task = await call('post', '/api/tasks', {}, { workspace_id: ws.id, title: 't', repository_ids: [repo.id] });
    await call('get', '/api/tasks', {}, { workspace_id: ws.id });
    await call('get', '/api/tasks/:id', { id: task.id });
    await call('patch', '/api/tasks/:id', { id: task.id }, { title: 't2' });
    await call('patch', '/api/tasks/:id', { id: task.id }, { state: 'in_progress' });
    await call('post', '/api/tasks/:id/unarchive', { id: task.id }, {});
    await call('get', '/api/tasks/:id/messages', { id: task.id });
    const session = launchConfigFor({ id: 'openapi-session', taskId: task.id, workspaceId: ws.id });
    await backend.uow.read.sessions.insert(sessionRow(session, { at: '2026-12-01T10:00:00.000Z', state: 'completed' }));
    await call('get', '/api/sessions');
    await call('get', '/api/tasks/:id/sessions', { id: task.id });
    await call('get', '/api/sessions/:id/prompts', { id: session.sessionId });
    await call('get', '/api/tasks/:id/timeline', { id: task.id });
    const failed = launchConfigFor({ id: 'openapi-failed', taskId: task.id, workspaceId: ws.id });
    await backend.uow.read.sessions.insert(sessionRow(failed, { at: '2026-12-01T10:00:01.000Z', state: 'failed' }));
    const queued = (await call('post', '/api/sessions/:id/prompts', { id: failed.sessionId }, { prompt: 'p' })) as {
      queued_prompt_id?: string;
    };
    await call('delete', '/api/sessions/:id/prompts/:prompt_id', {
      id: failed.sessionId,
      prompt_id: queued.queued_prompt_id ?? '',
    });
    await call('post', '/api/tokens', {}, { name: 'second' });
    await call('get', '/api/tokens');
    await call('get', '/api/me');
    await call('post', '/api/console/login-links', {}, {});
    await call('get', '/api/replicas');
    await call('get', '/api/audit', {}, { limit: '5' });
    await call('get', '/api/openapi.json');
    await call('get', '/api/agentctl');
    await call('get', '/api/executors');
    await call('get', '/api/questions', {}, { state: 'pending' });
    await call('get', '/api/tasks/:id/parent-questions', { id: task.id });
    await call('get', '/api/tasks/:id/permission-grants', { id: task.id });
    await call('get', '/api/sessions/:id', { id: session.sessionId });
    await call('get', '/api/sessions/:id/tools', { id: session.sessionId });

    // Sources: a GitLab repository attached by URL, another attached and detached again.
    const sources = (await call(
      'post',
      '/api/tasks/:id/workspace-sources',
      { id: task.id },
      { sources: [{ remote_url: 'https://gitlab.com/g/p' }, { remote_url: 'https://github.com/o/other' }] },
    )) as unknown as { added: { id: string; provider: string | null }[] };
    const [gitlabRepo, otherRepo] = sources.added;
    await call('delete', '/api/tasks/:id/workspace-sources/:repository_id', {
      id: task.id,
      repository_id: otherRepo?.id ?? '',
    });
    const pr = await call('post', '/api/tasks/:id/prs', { id: task.id }, { repository_id: repo.id, number: 7 });
    await call('get', '/api/tasks/:id/prs', { id: task.id });
    await call('get', '/api/tasks/:id/prs/:prId/lifecycle', { id: task.id, prId: pr.id });
    const mr = await call(
      'post',
      '/api/tasks/:id/mrs',
      { id: task.id },
      { repository_id: gitlabRepo?.id ?? '', project_path: 'g/p', iid: 3 },
    );
    await call('get', '/api/tasks/:id/mrs', { id: task.id });
    await call('get', '/api/tasks/:id/mrs/:mrId/lifecycle', { id: task.id, mrId: mr.id });

    // /readyz answers 200 or 503 (no agentctl here), each with its documented body.
    const ready = await fetch(`${base}/readyz`);
    const readyDoc = DOCS.get('GET /readyz');
    const notReady = readyDoc?.errors?.[503];
    const readySchema =
      ready.status === 200 ? readyDoc?.ok.schema : typeof notReady === 'object' ? notReady.schema : undefined;
    expect(readySchema).toBeDefined();
    expect(readySchema?.safeParse(await ready.json()).error?.issues ?? []).toEqual([]);
    checked.add('GET /readyz');
    await call('get', '/metrics');
  });

  test('the session routes answer as documented with an agentctl up', async () => {
    const { call } = await serve(cleanup, { agentctl: fakeAgentctlPort(new FakeAgentctl()) });
    const ws = await call('post', '/api/workspaces', {}, { name: 'w' });
    const task = await call('post', '/api/tasks', {}, { workspace_id: ws.id, title: 't' });
    const launched = (await call('post', '/api/tasks/:id/sessions', { id: task.id }, {})) as unknown as {
      session_id: string;
    };
    const id = launched.session_id;
    await call('get', '/api/sessions/:id', { id });
    await call('get', '/api/sessions/:id/tools', { id });
    await call('post', '/api/sessions/:id/prompts', { id }, { prompt: 'hello' });
    await call('post', '/api/sessions/:id/stop', { id }, {});
    await call('post', '/api/sessions/:id/resume', { id }, {});
    await call('post', '/api/sessions/:id/stop', { id }, {});
    await call('post', '/api/sessions/:id/relaunch', { id }, {});
  });

  test('every route with a response schema was checked above, or is listed with why not', () => {
    const withSchema = [...DOCS].filter(([, doc]) => doc.ok.schema !== undefined).map(([route]) => route);
    // A new route joins the walk above, or this list with where its answers are checked.
    expect(withSchema.filter((route) => !checked.has(route) && !ELSEWHERE.has(route)).sort()).toEqual([]);
  });
});
