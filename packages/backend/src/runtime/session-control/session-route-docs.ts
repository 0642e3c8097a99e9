import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { QueuedPromptViewSchema } from '../prompt-queue/queued-prompt';
import { LaunchSessionBodySchema, ResumeSessionBodySchema } from '../sessions/agent-session';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { EnqueuePromptBodySchema } from './prompt-service';
import { ListSessionsQuerySchema, SessionSummaryViewSchema, TaskSessionsQuerySchema } from './session-list';
import { CancelTurnViewSchema, EmptyBodySchema } from './session-routes';
import { LaunchedSessionViewSchema, SessionViewSchema } from './session-view';
import { SessionToolsViewSchema } from './session-tools';
import { EnqueuedPromptViewSchema, PromptParamsSchema } from './prompt-routes';

const LAUNCHED = '`{session_id, mcp_url, mcp_token, launch_config}` (the token is shown only here)';
const SUMMARIES = {
  status: 200,
  description: 'a page of session summaries, oldest first',
  schema: z
    .object({ sessions: z.array(SessionSummaryViewSchema), next_cursor: z.string().nullable() })
    .strict()
    .meta({ id: 'SessionPage' }),
};
const AGENTCTL_DOWN = {
  503: 'agentctl cannot serve it (recorded `failed` with `last_error`)',
  504: "agentctl's deadline",
};

/** DELETE /api/tasks/:id lives with the sessions it stops (session-routes.ts); listed under Tasks. */
export const TASK_ARCHIVE_ROUTE_DOC: RouteDoc = {
  method: 'delete',
  path: '/api/tasks/:id',
  operationId: 'archiveTask',
  summary: 'Archive a task and stop its live sessions',
  description:
    'Sets `archived_at`: the task leaves `GET /api/tasks` unless `include_archived=true`, launches on it ' +
    'are refused (409). Archiving again is a 204 too. The task workspace is then removed ' +
    '(`KANDEV_WORKSPACE_CLEANUP_ON_ARCHIVE`; docs/workspaces.md).',
  params: IdParamsSchema,
  ok: { status: 204, description: 'archived' },
};

/** POST /api/sessions/:id/relaunch: the launch answer plus the session it replaces. */
const RelaunchedSessionViewSchema = LaunchedSessionViewSchema.extend({
  relaunched_from: z.string().describe('the ended session this one replaces'),
})
  .strict()
  .meta({ id: 'RelaunchedSession' });

export const SESSION_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/tasks/:id/sessions',
    operationId: 'launchSession',
    summary: 'Launch a session for a task',
    description:
      '`executor` names `local`, `docker`, `remote` or a profile; default: the backend default. The task ' +
      'workspace is made first (a worktree or clone per repository, docs/workspaces.md); the agent works there.',
    params: IdParamsSchema,
    body: LaunchSessionBodySchema,
    ok: { status: 201, description: LAUNCHED, schema: LaunchedSessionViewSchema },
    errors: { 409: 'the task is archived, or a repository could not be checked out', ...AGENTCTL_DOWN },
  },
  {
    method: 'get',
    path: '/api/tasks/:id/sessions',
    operationId: 'listTaskSessions',
    summary: "List a task's sessions",
    params: IdParamsSchema,
    query: TaskSessionsQuerySchema,
    ok: SUMMARIES,
  },
  {
    method: 'get',
    path: '/api/sessions',
    operationId: 'listSessions',
    summary: 'List sessions, newest first, filtered',
    description:
      'Filters combine with AND: `state` (comma-separated), `task_id`, `executor`, `failed`. `sort` is ' +
      '`created_desc` (default) or `created_asc`; pass `next_cursor` back with the same query (a cursor from ' +
      'another sort is a 400). Each summary carries `last_error`, `refresh_error` and `health`.',
    query: ListSessionsQuerySchema,
    ok: { ...SUMMARIES, description: 'a page of session summaries' },
  },
  {
    method: 'get',
    path: '/api/sessions/:id/tools',
    operationId: 'getSessionTools',
    summary: "The session's served tools, with their input schemas",
    description:
      'Names as agentctl serves them now (`tools_from: "agentctl"`), or, when agentctl cannot be asked, the ' +
      'list the stored config selects (`tools_from: "launch_config"`); catalogue order.',
    params: IdParamsSchema,
    ok: {
      status: 200,
      description:
        '`{session_id, revision, applied_revision, providers, question_capability, tools_from, ' +
        'tools: [{name, description, input_schema}], agentctl: {reachable, error?}}`',
      schema: SessionToolsViewSchema,
    },
  },
  {
    method: 'get',
    path: '/api/sessions/:id',
    operationId: 'getSession',
    summary: 'Get a session, with what agentctl reports',
    params: IdParamsSchema,
    ok: {
      status: 200,
      description:
        '`state`, `health` (`failed`; `stuck`: live but agentctl is unreachable or its agent exited; `warning`: ' +
        'an error is reported; `ok`), `exit_reason` (why the agent process ended, from agentctl), ' +
        '`last_error` (why it failed, or the latest warning about its agent, e.g. no MCP ' +
        'connection), the stored (desired) launch config, `revision`, `applied_revision` and ' +
        '`refresh_error`, plus what agentctl reports: `tools` (the effective tool names) and `agent` ' +
        '`{status, pid, acp_session_id, loaded, current_prompt_id, exit_reason, mode_id, ' +
        'system_prompt_delivery, mcp_connected}`: `mode_id` the ACP session mode set for the permission ' +
        'policy (null: none offered), `system_prompt_delivery` how the system prompt reached the agent ' +
        '(`spec_append`, `first_prompt`, `kept` by a loaded session, or `none`), `mcp_connected` whether ' +
        'the agent listed its MCP tools (false: it has no kandev tools)',
      schema: SessionViewSchema,
    },
  },
  {
    method: 'post',
    path: '/api/sessions/:id/resume',
    operationId: 'resumeSession',
    summary: 'Resume a session with a fresh MCP token',
    description: 'The config is rebuilt from the database at the next revision; old MCP connections are closed.',
    params: IdParamsSchema,
    body: ResumeSessionBodySchema,
    ok: { status: 200, description: LAUNCHED, schema: LaunchedSessionViewSchema },
    errors: { 409: 'the session cannot be resumed in its state', ...AGENTCTL_DOWN },
  },
  {
    method: 'post',
    path: '/api/sessions/:id/relaunch',
    operationId: 'relaunchSession',
    summary: 'Relaunch an ended session as a new session',
    description:
      'A new session for the same task, launched as the given one was (its executor, surface and title ' +
      "ownership; the task's agent profile), with a fresh workspace check and MCP token. The given session " +
      'must have ended (`completed`, `failed`, `cancelled`); it and its prompts stay as they are (prompts bound ' +
      'to it are not moved). While another session of the task is `created` or live, the relaunch is refused.',
    params: IdParamsSchema,
    body: EmptyBodySchema,
    ok: { status: 201, description: `${LAUNCHED} plus \`relaunched_from\``, schema: RelaunchedSessionViewSchema },
    errors: {
      409: 'the session has not ended, another session of the task is live (named in `details`), or the task is archived',
      ...AGENTCTL_DOWN,
    },
  },
  {
    method: 'post',
    path: '/api/sessions/:id/stop',
    operationId: 'stopSession',
    summary: "Stop a session and its agent's process group",
    params: IdParamsSchema,
    body: EmptyBodySchema,
    ok: { status: 200, description: 'the session, now `cancelled`', schema: SessionViewSchema },
  },
  {
    method: 'post',
    path: '/api/sessions/:id/cancel',
    operationId: 'cancelTurn',
    summary: 'Cancel the running turn',
    description:
      'Idempotent for a live session: with no turn running (it may have just ended, or the session is ' +
      'MCP-only and runs no turns) the answer is 200 `{cancelled: false, prompt_id: null}` and nothing changes. ' +
      'A cancelled turn records `turn.cancel_requested` (who asked: the audit trail); its end follows from agentctl.',
    params: IdParamsSchema,
    body: EmptyBodySchema,
    ok: {
      status: 200,
      description:
        '`{cancelled, prompt_id}`: `cancelled: true` names the prompt whose turn ends with ' +
        '`stop_reason: "cancelled"`; `false` when no turn was running',
      schema: CancelTurnViewSchema,
    },
    errors: {
      409: 'the session is not live (created, completed, failed or cancelled)',
      503: 'agentctl is not running',
    },
  },
];

export const PROMPT_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/sessions/:id/prompts',
    operationId: 'queuePrompt',
    summary: 'Queue a prompt for the session (it runs when the agent is free)',
    description:
      "Recorded in the task's conversation and queued; it supersedes the task's pending parent question " +
      '(listed). Blank text (only whitespace, any kind) is a 400, nothing stored.',
    params: IdParamsSchema,
    body: EnqueuePromptBodySchema,
    ok: {
      status: 202,
      description: '`{queued_prompt_id, message_id, session_id, status, superseded_question_ids}`',
      schema: EnqueuedPromptViewSchema,
    },
    errors: { 409: 'the session is `completed` or `cancelled`' },
  },
  {
    method: 'get',
    path: '/api/sessions/:id/prompts',
    operationId: 'listPrompts',
    summary: "List a session's prompts, oldest first",
    params: IdParamsSchema,
    ok: {
      status: 200,
      description:
        "the session's prompts; `error` says why a `failed` one failed, or warns about a `completed` one's turn",
      schema: z
        .object({ items: z.array(QueuedPromptViewSchema) })
        .strict()
        .meta({ id: 'QueuedPromptList' }),
    },
  },
  {
    method: 'delete',
    path: '/api/sessions/:id/prompts/:prompt_id',
    operationId: 'cancelQueuedPrompt',
    summary: 'Cancel a queued prompt before it is delivered',
    description:
      'Only a `queued` prompt (not yet sent to the agent) is cancelled: it becomes `cancelled` and a ' +
      '`queue.changed` event follows; its conversation entry stays. A prompt already delivered (`dispatched`, ' +
      '`completed`, `failed`) is a 409 (cancel the turn with `POST /api/sessions/:id/cancel`). Cancelling a ' +
      'cancelled prompt again answers it unchanged.',
    params: PromptParamsSchema,
    ok: { status: 200, description: 'the prompt, now `cancelled`', schema: QueuedPromptViewSchema },
    errors: { 404: 'an unknown session, or no such prompt of this session', 409: 'the prompt was already delivered' },
  },
];
