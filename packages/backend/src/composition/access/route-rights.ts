import type { RouteRule, ScopeSource } from '../../platform/access/route-policy';

// Every route the backend serves, the right it needs and where its workspace is found: the table the
// route policy (platform/access/route-policy.ts) enforces. A route missing here is refused to every
// token; test/service/any-db/route-rights.test.ts fails, naming the route, until the OpenAPI document
// and this table agree. Rights: `read` (viewer and up), `operate` (operator and up: tasks, sessions,
// prompts, answers, sources), `admin` (tokens, agent profiles, credentials, workspaces, repositories).

const path = (name: string, kind: string): ScopeSource => ({ in: 'path', name, kind });
const query = (name: string, kind: string): ScopeSource => ({ in: 'query', name, kind });
const body = (name: string, kind: string): ScopeSource => ({ in: 'body', name, kind });

const TASK = [path('id', 'task')];
const SESSION = [path('id', 'session')];
const WORKSPACE = [path('id', 'workspace')];

export const ROUTE_RIGHTS: readonly RouteRule[] = [
  // Open: answered before the token check.
  { method: 'GET', path: '/healthz', right: 'open', scope: 'none' },
  { method: 'GET', path: '/readyz', right: 'open', scope: 'none' },
  { method: 'POST', path: '/login', right: 'open', scope: 'none' },
  { method: 'GET', path: '/login', right: 'open', scope: 'none' },
  { method: 'POST', path: '/logout', right: 'open', scope: 'none' },

  // The service, the caller, the cluster: no workspace's data.
  { method: 'GET', path: '/api/openapi.json', right: 'read', scope: 'none' },
  { method: 'GET', path: '/api/me', right: 'read', scope: 'none' },
  // A sign-in link carries the very token that asked for it: its rights, no more.
  { method: 'POST', path: '/api/console/login-links', right: 'read', scope: 'none' },
  { method: 'GET', path: '/metrics', right: 'read', scope: 'all' },
  // What runs where (replicas, agentctls): no workspace's data; `kandev status` asks it.
  { method: 'GET', path: '/api/replicas', right: 'read', scope: 'none' },
  { method: 'GET', path: '/api/agentctl', right: 'read', scope: 'none' },
  { method: 'GET', path: '/api/executors', right: 'read', scope: 'none' },
  // The audit trail names tokens and changes in every workspace: an admin of every workspace.
  { method: 'GET', path: '/api/audit', right: 'admin', scope: 'all' },

  // Tokens: the service keeps a limited admin within its workspaces (minting, listing, revoking).
  { method: 'POST', path: '/api/tokens', right: 'admin', scope: 'none' },
  { method: 'GET', path: '/api/tokens', right: 'admin', scope: 'none' },
  { method: 'DELETE', path: '/api/tokens/:id', right: 'admin', scope: 'none' },

  // Agent profiles: read by whoever launches; changed by an admin of every workspace.
  { method: 'GET', path: '/api/agent-profiles', right: 'read', scope: 'none' },
  { method: 'GET', path: '/api/agent-profiles/:id', right: 'read', scope: 'none' },
  { method: 'POST', path: '/api/agent-profiles', right: 'admin', scope: 'all' },
  { method: 'PATCH', path: '/api/agent-profiles/:id', right: 'admin', scope: 'all' },
  { method: 'DELETE', path: '/api/agent-profiles/:id', right: 'admin', scope: 'all' },

  // Workspaces, their credentials and repositories.
  { method: 'POST', path: '/api/workspaces', right: 'admin', scope: 'all' },
  { method: 'GET', path: '/api/workspaces', right: 'read', scope: [] },
  { method: 'GET', path: '/api/workspaces/:id', right: 'read', scope: WORKSPACE },
  { method: 'GET', path: '/api/workspaces/:id/credentials', right: 'read', scope: WORKSPACE },
  { method: 'PUT', path: '/api/workspaces/:id/credentials/:provider', right: 'admin', scope: WORKSPACE },
  { method: 'DELETE', path: '/api/workspaces/:id/credentials/:provider', right: 'admin', scope: WORKSPACE },
  { method: 'POST', path: '/api/repositories', right: 'admin', scope: [body('workspace_id', 'workspace')] },
  { method: 'GET', path: '/api/repositories', right: 'read', scope: [query('workspace_id', 'workspace')] },
  { method: 'GET', path: '/api/repositories/:id', right: 'read', scope: [path('id', 'repository')] },

  // Tasks.
  { method: 'POST', path: '/api/tasks', right: 'operate', scope: [body('workspace_id', 'workspace')] },
  { method: 'GET', path: '/api/tasks', right: 'read', scope: [query('workspace_id', 'workspace')] },
  { method: 'GET', path: '/api/tasks/:id', right: 'read', scope: TASK },
  { method: 'PATCH', path: '/api/tasks/:id', right: 'operate', scope: TASK },
  { method: 'DELETE', path: '/api/tasks/:id', right: 'operate', scope: TASK },
  { method: 'POST', path: '/api/tasks/:id/unarchive', right: 'operate', scope: TASK },
  { method: 'GET', path: '/api/tasks/:id/messages', right: 'read', scope: TASK },
  { method: 'GET', path: '/api/tasks/:id/timeline', right: 'read', scope: TASK },
  { method: 'GET', path: '/api/tasks/:id/parent-questions', right: 'read', scope: TASK },
  { method: 'GET', path: '/api/tasks/:id/permission-grants', right: 'read', scope: TASK },
  { method: 'DELETE', path: '/api/tasks/:id/permission-grants/:grant_id', right: 'operate', scope: TASK },
  { method: 'POST', path: '/api/tasks/:id/workspace-sources', right: 'operate', scope: TASK },
  { method: 'DELETE', path: '/api/tasks/:id/workspace-sources/:repository_id', right: 'operate', scope: TASK },
  { method: 'GET', path: '/api/tasks/:id/mrs', right: 'read', scope: TASK },
  { method: 'POST', path: '/api/tasks/:id/mrs', right: 'operate', scope: TASK },
  { method: 'GET', path: '/api/tasks/:id/mrs/:mrId/lifecycle', right: 'read', scope: TASK },
  { method: 'POST', path: '/api/tasks/:id/mrs/:mrId/lifecycle/evaluate', right: 'operate', scope: TASK },
  { method: 'GET', path: '/api/tasks/:id/prs', right: 'read', scope: TASK },
  { method: 'POST', path: '/api/tasks/:id/prs', right: 'operate', scope: TASK },
  { method: 'GET', path: '/api/tasks/:id/prs/:prId/lifecycle', right: 'read', scope: TASK },

  // Sessions and prompts.
  { method: 'GET', path: '/api/tasks/:id/sessions', right: 'read', scope: TASK },
  { method: 'POST', path: '/api/tasks/:id/sessions', right: 'operate', scope: TASK },
  { method: 'GET', path: '/api/sessions', right: 'read', scope: [query('task_id', 'task')] },
  { method: 'GET', path: '/api/sessions/:id', right: 'read', scope: SESSION },
  { method: 'GET', path: '/api/sessions/:id/tools', right: 'read', scope: SESSION },
  { method: 'POST', path: '/api/sessions/:id/cancel', right: 'operate', scope: SESSION },
  { method: 'POST', path: '/api/sessions/:id/relaunch', right: 'operate', scope: SESSION },
  { method: 'POST', path: '/api/sessions/:id/resume', right: 'operate', scope: SESSION },
  { method: 'POST', path: '/api/sessions/:id/stop', right: 'operate', scope: SESSION },
  { method: 'GET', path: '/api/sessions/:id/prompts', right: 'read', scope: SESSION },
  { method: 'POST', path: '/api/sessions/:id/prompts', right: 'operate', scope: SESSION },
  { method: 'DELETE', path: '/api/sessions/:id/prompts/:prompt_id', right: 'operate', scope: SESSION },

  // Questions.
  {
    method: 'GET',
    path: '/api/questions',
    right: 'read',
    scope: [query('workspace_id', 'workspace'), query('task_id', 'task')],
  },
  { method: 'GET', path: '/api/questions/:id', right: 'read', scope: [path('id', 'question')] },
  { method: 'POST', path: '/api/questions/:id/answer', right: 'operate', scope: [path('id', 'question')] },
  { method: 'GET', path: '/api/parent-questions/:id', right: 'read', scope: [path('id', 'parent_question')] },

  // The event stream: filtered to the token's workspaces (event-store.ts).
  {
    method: 'GET',
    path: '/api/events',
    right: 'read',
    scope: [query('workspace_id', 'workspace'), query('task_id', 'task'), query('session_id', 'session')],
  },
];
