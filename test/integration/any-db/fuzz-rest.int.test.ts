// Fuzz of the backend's REST boundary against the real built process: every route (read from the
// sources), with arbitrary path parameters, query strings and bodies, sent with an admin token, a
// viewer token and an operator token limited to one workspace (the runs split between them).
// Properties: never a 5xx, the process stays up, and a refused request (4xx) leaves every table of the
// database as it was.
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { BackendApi } from '../../helpers/backend-api';
import { Cleanup } from '../../helpers/cleanup';
import {
  backendRoutes,
  type DatabaseDigest,
  databaseDigester,
  fillRoute,
  routeParams,
  type RouteTemplate,
} from '@kandev/backend/testing';
import {
  type FuzzBody,
  NASTY_SEGMENTS,
  pathSegment,
  queryString,
  requestBody,
} from '../../helpers/fuzz/rest-arbitraries';
import { githubForBackend } from '../../helpers/github-server';
import { GITLAB_TEST_HOST, startGitlabServer } from '../../helpers/gitlab-server';
import { isRunning, startBackend } from '../../helpers/processes';

/** Fixed seed and bounded runs: the same requests every time, about a minute in all. */
const SEED = 20261201;
/** Runs per route and token: 12 in all, as many as one token had alone. */
const RUNS_PER_TOKEN = { admin: 6, viewer: 3, scopedOperator: 3 } as const;
type FuzzToken = keyof typeof RUNS_PER_TOKEN;

interface World {
  /** The backend database's digest now (the testing entry's databaseDigester). */
  digest: () => Promise<DatabaseDigest>;
  url: string;
  token: string;
  tokens: Record<FuzzToken, string>;
  liveIds: string[];
  gitlabBaseUrl: string;
  isUp: () => boolean;
}

const routes = backendRoutes();
const suite = new Cleanup();
let world: World;

beforeAll(async () => {
  const gitlab = await startGitlabServer(suite);
  // GitHub tokens are verified at a loopback GitHub test server: no token leaves this host either.
  const { env: githubEnv } = await githubForBackend(suite);
  const backend = await startBackend(suite, { KANDEV_GITLAB_INSECURE_HOSTS: GITLAB_TEST_HOST, ...githubEnv });
  const api = new BackendApi(backend.ready.url, backend.apiToken);
  const workspaceId = await api.workspace('fuzz');
  const repository = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api.git' });
  const profile = await api.create<{ id: string }>('/api/agent-profiles', {
    name: 'exits-at-once',
    command: process.execPath,
    args: ['-e', 'process.exit(0)'],
    supports_mcp: false,
  });
  const task = await api.task(workspaceId, { title: 'fuzzed', repository_ids: [repository.id] });
  // Another workspace's ids among the live ones: the limited operator's requests reach past its scope.
  const otherWorkspaceId = await api.workspace('other');
  const otherTask = await api.task(otherWorkspaceId, { title: 'elsewhere' });
  const minted = async (role: string, workspaces: string[] | null) =>
    (await api.create<{ token: string }>('/api/tokens', { name: `fuzz ${role}`, role, workspaces })).token;
  const child = await api.task(workspaceId, { title: 'child', parent_id: task.id });
  const session = await api.launch(task.id);
  // A token of its own for DELETE /api/tokens/:id to revoke: never the one the fuzzer sends.
  const victim = await api.create<{ id: string }>('/api/tokens', { name: 'victim' });
  world = {
    url: backend.ready.url,
    token: backend.apiToken,
    tokens: {
      admin: backend.apiToken,
      viewer: await minted('viewer', null),
      scopedOperator: await minted('operator', [workspaceId]),
    },
    digest: await databaseDigester(backend.dataDir, suite),
    liveIds: [
      workspaceId,
      otherWorkspaceId,
      otherTask.id,
      repository.id,
      profile.id,
      task.id,
      child.id,
      session.session_id,
      victim.id,
      'github',
      'gitlab',
    ],
    gitlabBaseUrl: gitlab.baseUrl,
    isUp: () => isRunning(backend.child),
  };
});

afterAll(() => suite.run());

/** Keeps GitLab credential checks on the loopback GitLab: the fuzzer never sends a token off this host. */
function withLocalGitlab(route: RouteTemplate, body: FuzzBody): FuzzBody {
  if (route.method !== 'PUT' || !route.path.includes('/credentials/') || body.kind !== 'json') return body;
  const value = body.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'base_url' in value) return body;
  return { kind: 'json', value: { ...value, base_url: world.gitlabBaseUrl } };
}

/** node:http, not fetch: fetch normalises `..` out of paths and sends no body with a GET. */
function send(
  method: string,
  path: string,
  body: FuzzBody,
  token = world.token,
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let payload: string | undefined;
  if (body.kind !== 'none') {
    headers['content-type'] = 'application/json';
    payload = body.kind === 'json' ? JSON.stringify(body.value) : body.text;
    // Node sends a GET's body unframed unless told its length.
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const { hostname, port } = new URL(world.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, method, path, headers }, (response) => {
      // GET /api/events answers a stream that never ends by itself: its status is the verdict.
      if (response.headers['content-type']?.startsWith('text/event-stream') === true) {
        resolve({ status: response.statusCode ?? 0, text: '' });
        response.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** 'no 5xx', or what went wrong, so a failure prints the request and the answer. */
function verdict(method: string, path: string, response: { status: number; text: string }): string {
  return response.status < 500 ? 'no 5xx' : `${method} ${path} -> ${response.status}: ${response.text.slice(0, 300)}`;
}

test('every route of the backend is found in its sources', () => {
  expect(routes.length).toBeGreaterThanOrEqual(40);
  expect(routes).toContainEqual({ method: 'POST', path: '/api/tasks/:id/sessions' });
});

const withParams = routes.filter((route) => routeParams(route.path).length > 0);

describe.each(withParams.map((route) => [`${route.method} ${route.path}`, route] as const))(
  '%s path parameters',
  (_name, route) => {
    test('an odd value in each position: a 4xx that writes nothing', async () => {
      const params = routeParams(route.path);
      for (const [position] of params.entries()) {
        for (const nasty of NASTY_SEGMENTS) {
          const values = params.map((_param, index) => (index === position ? nasty : world.liveIds[0]!));
          const path = fillRoute(route.path, values);
          const before = await world.digest();
          const response = await send(route.method, path, { kind: 'json', value: {} });
          expect(verdict(route.method, path, response)).toBe('no 5xx');
          if (response.status >= 400) expect({ path, db: await world.digest() }).toEqual({ path, db: before });
        }
      }
    });
  },
);

describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  test.each(Object.keys(RUNS_PER_TOKEN) as FuzzToken[])('%s: never a 5xx; a refusal writes nothing', async (as) => {
    const params = routeParams(route.path);
    const request = fc.record({
      segments: fc.tuple(...params.map(() => pathSegment(world.liveIds))),
      query: queryString(),
      body: requestBody(world.liveIds),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ segments, query, body }) => {
        const path = `${fillRoute(route.path, segments)}${query}`;
        const before = await world.digest();
        const response = await send(route.method, path, withLocalGitlab(route, body), world.tokens[as]);
        expect(verdict(route.method, path, response)).toBe('no 5xx');
        if (response.status >= 400) {
          expect({ path, status: response.status, text: response.text }).toEqual({
            path,
            status: response.status,
            text: expect.stringMatching(/^\{"error":\{"code":"[a-z_]+","message":"/) as string,
          });
          expect({ path, db: await world.digest() }).toEqual({ path, db: before });
        }
      }),
      { seed: SEED + Object.keys(RUNS_PER_TOKEN).indexOf(as), numRuns: RUNS_PER_TOKEN[as], endOnFailure: true },
    );
    expect(world.isUp()).toBe(true);
  });
});
