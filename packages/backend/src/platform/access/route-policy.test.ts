import type { Request, Response } from 'express';
import { AppError } from '@kandev/protocol';
import { type Principal, setPrincipal } from './principal';
import { createRoutePolicy, type RouteRule, type WorkspaceLookup } from './route-policy';

const RULES: RouteRule[] = [
  { method: 'GET', path: '/api/tasks/:id', right: 'read', scope: [{ in: 'path', name: 'id', kind: 'task' }] },
  { method: 'PATCH', path: '/api/tasks/:id', right: 'operate', scope: [{ in: 'path', name: 'id', kind: 'task' }] },
  {
    method: 'POST',
    path: '/api/tasks',
    right: 'operate',
    scope: [{ in: 'body', name: 'workspace_id', kind: 'workspace' }],
  },
  { method: 'POST', path: '/api/agent-profiles', right: 'admin', scope: 'all' },
];
const TASKS: Record<string, string> = { t1: 'w1', t2: 'w2' };
const lookup: WorkspaceLookup = (_kind, id) => Promise.resolve(TASKS[id]);

/** What the policy decides: undefined (passed on) or the refusal's code and message. */
async function decide(principal: Principal, method: string, url: string, body: unknown = {}) {
  const res = { locals: {} } as Response;
  setPrincipal(res, principal);
  const req = { method, originalUrl: url, query: {}, body } as unknown as Request;
  const outcome = await new Promise<unknown>((resolve) => createRoutePolicy(RULES, lookup)(req, res, resolve));
  return outcome instanceof AppError ? `${outcome.code}: ${outcome.message}` : outcome;
}

const viewer: Principal = { tokenId: 'v', name: 'v', role: 'viewer', workspaces: null };
const operatorW1: Principal = { tokenId: 'o', name: 'o', role: 'operator', workspaces: ['w1'] };
const admin: Principal = { tokenId: 'a', name: 'a', role: 'admin', workspaces: null };

describe('route policy', () => {
  test('a role below the right is refused, naming the right it needs', async () => {
    expect(await decide(viewer, 'GET', '/api/tasks/t1')).toBeUndefined();
    expect(await decide(viewer, 'PATCH', '/api/tasks/t1')).toBe(
      "permission_denied: this token's role viewer cannot PATCH /api/tasks/:id (needs operator)",
    );
    expect(await decide(operatorW1, 'POST', '/api/agent-profiles')).toMatch(/role operator .*\(needs admin\)/);
  });

  test('a route no rule matches is refused to every role, admin too', async () => {
    expect(await decide(admin, 'DELETE', '/api/tasks/t1')).toBe('not_found: no route for DELETE /api/tasks/t1');
    expect(await decide(admin, 'GET', '/api/unlisted')).toMatch(/^not_found/);
  });

  test('a limited token: its workspaces pass, another workspace is refused or not found', async () => {
    expect(await decide(operatorW1, 'PATCH', '/api/tasks/t1')).toBeUndefined();
    expect(await decide(operatorW1, 'PATCH', '/api/tasks/t2')).toBe('not_found: task t2 not found');
    // An unknown task goes on to the route, which answers the same 404 itself.
    expect(await decide(operatorW1, 'PATCH', '/api/tasks/t9')).toBeUndefined();
    expect(await decide(operatorW1, 'POST', '/api/tasks', { workspace_id: 'w2' })).toBe(
      "permission_denied: workspace w2 is not in this token's workspaces",
    );
    expect(await decide(operatorW1, 'POST', '/api/tasks', { workspace_id: 'w1' })).toBeUndefined();
  });

  test('matching is as Express matches: any case, a trailing slash, HEAD as GET, encoded parameters', async () => {
    expect(await decide(operatorW1, 'HEAD', '/API/Tasks/t2/?x=1')).toBe('not_found: task t2 not found');
    expect(await decide(operatorW1, 'GET', '/api/tasks/%74%32')).toBe('not_found: task t2 not found');
    // Padded as the routes' id schema trims it: still another workspace's task.
    expect(await decide(operatorW1, 'GET', '/api/tasks/%20t2%20')).toBe('not_found: task t2 not found');
    expect(await decide(operatorW1, 'POST', '/api/tasks', { workspace_id: ' w2 ' })).toMatch(/workspace w2 is not/);
  });
});
