// Every route of the OpenAPI document, as every kind of token: viewer, operator and admin over every
// workspace, and an operator limited to one workspace aimed at its own and at another's resources.
// What the role table allows is never refused (not 403); what it does not is refused (403, or 404 for
// another workspace's resource, as if it did not exist) and leaves every table of the database as it was.
// The rights are decided before any database work, so this runs on the default database only; the
// REST fuzz suite sends viewer and scoped-operator requests on PostgreSQL too.
import { databaseDigester, launchConfigFor, ROUTE_GROUPS, type Role, sessionRow } from '@kandev/backend/testing';
import { type BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import {
  aim,
  type MatrixRoute,
  namesNoWorkspace,
  need,
  roleMay,
  spansEveryWorkspace,
  type Target,
} from '../../helpers/role-matrix';
import { startRolesBackend } from '../../helpers/roles-backend';

/** Served before the token check: no token's role matters. */
const OPEN = new Set(['/healthz', '/readyz', '/login', '/logout']);
const ROUTES: MatrixRoute[] = ROUTE_GROUPS.flatMap((group) => group.routes)
  .filter((route) => !OPEN.has(route.path))
  .map((route) => ({ method: route.method.toUpperCase(), path: route.path }));

interface Caller {
  label: string;
  role: Role;
  /** The one workspace it is limited to, or every workspace. */
  limitedTo: 'a' | null;
}

const CALLERS: Caller[] = [
  { label: 'viewer', role: 'viewer', limitedTo: null },
  { label: 'operator', role: 'operator', limitedTo: null },
  { label: 'operator of workspace a', role: 'operator', limitedTo: 'a' },
  { label: 'admin', role: 'admin', limitedTo: null },
];

describe('role × route matrix', () => {
  const cleanup = useCleanup();

  test.each(CALLERS)('$label: allowed routes are not refused, the others are and change nothing', async (caller) => {
    const { env, backend, baseUrl, admin, tokenFor } = await startRolesBackend(cleanup);
    const targets: Record<'a' | 'b', Target> = { a: await world(admin, 'a'), b: await world(admin, 'b') };
    for (const [name, target] of Object.entries(targets)) {
      const session = launchConfigFor({
        id: `session-${name}`,
        taskId: target.taskId,
        workspaceId: target.workspaceId,
      });
      await backend.uow.read.sessions.insert(
        sessionRow(session, { at: '2026-12-05T10:00:00.000Z', state: 'completed' }),
      );
      target.sessionId = session.sessionId;
    }
    const profile = await admin.create<{ id: string }>('/api/agent-profiles', {
      name: 'p',
      command: 'agent',
      supports_mcp: true,
    });
    const token = await tokenFor(caller.role, caller.limitedTo === null ? null : [targets.a.workspaceId]);
    const digest = await databaseDigester(env.dataDir!, cleanup);

    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const aimedAt of caller.limitedTo === null ? (['a'] as const) : (['a', 'b'] as const)) {
      for (const route of ROUTES) {
        const victim = await backend.tokens.create('victim', {
          workspaces: caller.limitedTo === null ? null : [targets.a.workspaceId],
        });
        const { path, body } = aim(route, targets[aimedAt], { profileId: profile.id, victimId: victim.id });
        const inScope = caller.limitedTo === null || aimedAt === caller.limitedTo || namesNoWorkspace(route);
        const allowed =
          roleMay(caller.role, route) && inScope && !(caller.limitedTo !== null && spansEveryWorkspace(route));
        const label = `${route.method} ${route.path} at ${aimedAt}`;
        const before = allowed ? undefined : await digest();
        const answer = await send(baseUrl, token, route.method, path, body);
        if (allowed) {
          outcomes.push(`${label}: ${answer.status === 403 ? `refused: ${answer.message}` : 'served'}`);
          expected.push(`${label}: served`);
          continue;
        }
        const unchanged = JSON.stringify(await digest()) === JSON.stringify(before);
        const refusedBy = !roleMay(caller.role, route)
          ? `(needs ${need(route) === 'read' ? 'viewer' : need(route) === 'operate' ? 'operator' : 'admin'})`
          : null;
        const named =
          refusedBy === null
            ? /not in this token's workspaces|not found/.test(answer.message)
            : answer.message.includes(refusedBy);
        const refused = refusedBy === null ? answer.status === 403 || answer.status === 404 : answer.status === 403;
        outcomes.push(
          `${label}: ${refused && named && unchanged ? 'refused' : `${answer.status} ${answer.message} unchanged=${unchanged}`}`,
        );
        expected.push(`${label}: refused`);
      }
    }
    expect(outcomes).toEqual(expected);
  });
});

/** A workspace with a repository and a task on it (its session is added as a row). */
async function world(admin: BackendApi, name: string): Promise<Target> {
  const workspaceId = await admin.workspace(name);
  const repository = await admin.repository(workspaceId, { remote_url: `https://github.com/acme/${name}.git` });
  const task = await admin.task(workspaceId, { title: name, repository_ids: [repository.id] });
  return { workspaceId, taskId: task.id, sessionId: '', repositoryId: repository.id };
}

/** One request; an event stream is read no further than its status. */
async function send(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    signal: controller.signal,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
    controller.abort();
    return { status: response.status, message: '' };
  }
  const text = await response.text();
  let message = '';
  try {
    message = String((JSON.parse(text) as { error?: { message?: string } }).error?.message ?? '');
  } catch {
    message = '';
  }
  return { status: response.status, message };
}
