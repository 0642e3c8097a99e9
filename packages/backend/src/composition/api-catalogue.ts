import { AGENT_PROFILE_ROUTE_DOCS } from '../catalogue/agent-profiles/agent-profile-route-docs';
import { API_TOKEN_ROUTE_DOCS } from '../platform/auth/api-token-route-docs';
import { CONSOLE_LOGIN_ROUTE_DOCS } from '../platform/auth/console-login-route-docs';
import { EVENT_ROUTE_DOCS } from '../platform/events/event-route-docs';
import { AUDIT_ROUTE_DOCS } from '../platform/events/audit-route-docs';
import { REPLICA_ROUTE_DOCS } from '../platform/cluster/lease-route-docs';
import { AGENTCTL_ROUTE_DOCS } from '../runtime/executors/agentctl-route-docs';
import { APP_ROUTE_DOCS } from '../platform/openapi/app-route-docs';
import { buildOpenApiDocument, type OpenApiDocument, type RouteGroup } from '../platform/openapi/openapi';
import { MESSAGE_ROUTE_DOCS } from '../catalogue/messages/message-route-docs';
import { TIMELINE_ROUTE_DOCS } from '../runtime/timeline/timeline-route-docs';
import { MR_LIFECYCLE_ROUTE_DOCS } from '../integrations/gitlab/mr-lifecycle-route-docs';
import { PR_LIFECYCLE_ROUTE_DOCS } from '../integrations/github/pr-lifecycle-route-docs';
import {
  CREDENTIAL_ROUTE_DOCS,
  REVIEW_LINK_ROUTE_DOCS,
} from '../integrations/provider-automation/provider-automation-route-docs';
import { QUESTION_ROUTE_DOCS } from '../runtime/questions/question-route-docs';
import { PARENT_QUESTION_ROUTE_DOCS } from '../runtime/parent-questions/parent-question-route-docs';
import { PERMISSION_GRANT_ROUTE_DOCS } from '../catalogue/permission-grants/grant-route-docs';
import { REPOSITORY_ROUTE_DOCS } from '../catalogue/repositories/repository-route-docs';
import {
  PROMPT_ROUTE_DOCS,
  SESSION_ROUTE_DOCS,
  TASK_ARCHIVE_ROUTE_DOC,
} from '../runtime/session-control/session-route-docs';
import { TASK_ROUTE_DOCS } from '../catalogue/tasks/task-route-docs';
import { WORKSPACE_ROUTE_DOCS } from '../catalogue/workspaces/workspace-route-docs';
import { WORKSPACE_SOURCE_ROUTE_DOCS } from '../runtime/workspace-sources/workspace-source-route-docs';

// Every route the backend serves, by heading: the source of GET /api/openapi.json and of
// docs/rest-api.md (npm run gen:rest-docs). A new route gets an entry in its folder's
// `*-route-docs.ts` (a new folder: a new group here); test/service/any-db/openapi.test.ts fails, naming
// the route, until the served routes and this list agree.
export const ROUTE_GROUPS: readonly RouteGroup[] = [
  {
    tag: 'Workspaces',
    description: 'Workspaces and their provider credentials (write-only tokens).',
    routes: [...WORKSPACE_ROUTE_DOCS, ...CREDENTIAL_ROUTE_DOCS],
  },
  {
    tag: 'Repositories',
    description: 'Git repositories registered in a workspace, with their provider.',
    routes: REPOSITORY_ROUTE_DOCS,
  },
  {
    tag: 'Agent profiles',
    description: 'How a session starts its agent (command, args, env).',
    routes: AGENT_PROFILE_ROUTE_DOCS,
  },
  {
    tag: 'Tasks',
    description: 'Tasks, their hierarchy and archive.',
    routes: [...TASK_ROUTE_DOCS, TASK_ARCHIVE_ROUTE_DOC],
  },
  {
    tag: 'Workspace sources',
    description: "A task's attached repositories: its provider set.",
    routes: WORKSPACE_SOURCE_ROUTE_DOCS,
  },
  {
    tag: 'Sessions',
    description: 'Agent sessions: launch, list, resume, stop, cancel a turn.',
    routes: SESSION_ROUTE_DOCS,
  },
  { tag: 'Prompts', description: "A session's prompt queue.", routes: PROMPT_ROUTE_DOCS },
  { tag: 'Conversation', description: "A task's conversation.", routes: MESSAGE_ROUTE_DOCS },
  {
    tag: 'Timeline',
    description: "A task's timeline: prompts, tool calls, questions, session states and tool revisions.",
    routes: TIMELINE_ROUTE_DOCS,
  },
  { tag: 'Operator questions', description: 'Questions agents ask the operator.', routes: QUESTION_ROUTE_DOCS },
  {
    tag: 'Parent questions',
    description: "An autopilot task's questions to its parent (read-only here).",
    routes: PARENT_QUESTION_ROUTE_DOCS,
  },
  {
    tag: 'Permission grants',
    description: 'What a task\'s agent may do again without asking ("allow always", remembered by kandev).',
    routes: PERMISSION_GRANT_ROUTE_DOCS,
  },
  { tag: 'Review automation', description: "A task's GitHub PR and GitLab MR links.", routes: REVIEW_LINK_ROUTE_DOCS },
  { tag: 'MR lifecycle', description: 'GitLab MR polling and lifecycle prompts.', routes: MR_LIFECYCLE_ROUTE_DOCS },
  {
    tag: 'PR lifecycle',
    description: 'GitHub PR polling, lifecycle prompts, auto-fix and auto-merge.',
    routes: PR_LIFECYCLE_ROUTE_DOCS,
  },
  { tag: 'Events', description: 'Live events (Server-Sent Events).', routes: EVENT_ROUTE_DOCS },
  { tag: 'Audit', description: 'Who changed what (admin).', routes: AUDIT_ROUTE_DOCS },
  { tag: 'Executors', description: 'Executors and their agentctls.', routes: AGENTCTL_ROUTE_DOCS },
  { tag: 'Replicas', description: 'Several backends on one database (docs/replicas.md).', routes: REPLICA_ROUTE_DOCS },
  { tag: 'API tokens', description: 'Operator API tokens.', routes: API_TOKEN_ROUTE_DOCS },
  {
    tag: 'Console sign-in',
    description: "The web console's cookie (docs/console.md).",
    routes: CONSOLE_LOGIN_ROUTE_DOCS,
  },
  { tag: 'Service', description: 'Health, readiness, metrics and this document.', routes: APP_ROUTE_DOCS },
];

let built: OpenApiDocument | undefined;

/** The document, built once (zod's JSON Schema output of every route's schemas). */
export function openApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument(
    {
      title: 'kandev backend REST API',
      version: '0.1.0',
      description:
        'JSON in and out. Every /api route and /metrics need `Authorization: Bearer <API token>`; ' +
        '/healthz and /readyz are open. Refusals use one error envelope (components.schemas.Error).',
    },
    ROUTE_GROUPS,
  );
  return built;
}
