// The role table docs/security.md states, written out on its own (not read from the backend's route
// rights table): which right each route needs, which routes span every workspace, which touch none,
// and the request that aims a route at one workspace's resources.
import type { Role } from '@kandev/backend/testing';

export interface MatrixRoute {
  method: string;
  /** Express form, `:name` parameters. */
  path: string;
}

export type Need = 'read' | 'operate' | 'admin';

const key = (route: MatrixRoute) => `${route.method.toUpperCase()} ${route.path}`;

/** Tokens, agent profile changes, workspaces, credentials, repositories and the audit trail: admin only. */
function adminOnly(route: MatrixRoute): boolean {
  const k = key(route);
  return (
    route.path.startsWith('/api/tokens') ||
    (route.path.startsWith('/api/agent-profiles') && route.method.toUpperCase() !== 'GET') ||
    k === 'POST /api/workspaces' ||
    k === 'POST /api/repositories' ||
    k === 'GET /api/audit' ||
    route.path.endsWith('/credentials/:provider')
  );
}

export function need(route: MatrixRoute): Need {
  if (adminOnly(route)) return 'admin';
  const reads = route.method.toUpperCase() === 'GET' || key(route) === 'POST /api/console/login-links';
  return reads ? 'read' : 'operate';
}

/** Routes over every workspace (or none in particular that a limited token may change): unlimited tokens only. */
const EVERY_WORKSPACE = new Set(['GET /metrics', 'POST /api/workspaces', 'GET /api/audit']);

export function spansEveryWorkspace(route: MatrixRoute): boolean {
  return (
    EVERY_WORKSPACE.has(key(route)) ||
    (route.path.startsWith('/api/agent-profiles') && route.method.toUpperCase() !== 'GET')
  );
}

/** Routes that name no workspace: the caller, the document, tokens, agent profiles, executors, the workspace list. */
export function namesNoWorkspace(route: MatrixRoute): boolean {
  return (
    route.path.startsWith('/api/tokens') ||
    route.path.startsWith('/api/agent-profiles') ||
    [
      '/api/me',
      '/api/openapi.json',
      '/api/executors',
      '/api/agentctl',
      '/api/replicas',
      '/api/console/login-links',
      '/api/workspaces',
    ].includes(route.path) ||
    spansEveryWorkspace(route)
  );
}

const ROLE_RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
const NEED_RANK: Record<Need, number> = { read: 0, operate: 1, admin: 2 };

export function roleMay(role: Role, route: MatrixRoute): boolean {
  return ROLE_RANK[role] >= NEED_RANK[need(route)];
}

/** One workspace's resources a request can be aimed at. */
export interface Target {
  workspaceId: string;
  taskId: string;
  sessionId: string;
  repositoryId: string;
}

export interface Shared {
  profileId: string;
  /** A token for DELETE /api/tokens/:id to revoke (never the one sending). */
  victimId: string;
}

/** The path (with query) and body aiming `route` at `target`. */
export function aim(route: MatrixRoute, target: Target, shared: Shared): { path: string; body?: unknown } {
  const byPrefix: [string, string][] = [
    ['/api/tasks/:id', target.taskId],
    ['/api/sessions/:id', target.sessionId],
    ['/api/workspaces/:id', target.workspaceId],
    ['/api/repositories/:id', target.repositoryId],
    ['/api/agent-profiles/:id', shared.profileId],
    ['/api/tokens/:id', shared.victimId],
  ];
  const values: Record<string, string> = { provider: 'github', repository_id: target.repositoryId };
  let path = route.path;
  for (const [prefix, id] of byPrefix) if (path.startsWith(prefix)) path = path.replace(':id', encodeURIComponent(id));
  path = path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? 'no-such-id'));
  const k = key(route);
  if (['GET /api/tasks', 'GET /api/repositories', 'GET /api/questions', 'GET /api/events'].includes(k)) {
    path += `?workspace_id=${target.workspaceId}`;
  }
  if (k === 'GET /api/sessions') path += `?task_id=${target.taskId}`;
  if (route.method.toUpperCase() === 'GET') return { path };
  const inWorkspace = k === 'POST /api/tasks' || k === 'POST /api/repositories';
  return { path, body: inWorkspace ? { workspace_id: target.workspaceId } : {} };
}
