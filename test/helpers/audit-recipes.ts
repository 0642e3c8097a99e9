// For each state-changing route, how to make one real, successful change with it: what to set up first
// (through the same admin client, or rows where no route makes them) and the request to send. The audit
// coverage test (test/service/any-db/audit-coverage.test.ts) walks the OpenAPI document with these; a
// route without a recipe fails it. Secrets a recipe sends (tokens, credential and env values) are listed
// in `world.secrets`, so the test can check no audit entry holds them.
import { type Backend, type FakeAgentctl, launchConfigFor, sessionRow } from '@kandev/backend/testing';
import type { BackendApi } from './backend-api';
import { waitUntil } from './wait';

export interface AuditWorld {
  /** A client of another admin token: what a recipe sets up is not the audited token's doing. */
  api: BackendApi;
  backend: Backend;
  agentctl: FakeAgentctl;
  secrets: string[];
}

export interface AuditRequest {
  path: string;
  body?: unknown;
}

type Recipe = (world: AuditWorld) => AuditRequest | Promise<AuditRequest>;

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;
const AT = '2026-12-05T10:00:00.000Z';

/** A workspace with a GitHub and a GitLab repository and an agent profile the fake agentctl runs. */
async function base(world: AuditWorld) {
  const workspaceId = await world.api.workspace(unique('ws'));
  const github = await world.api.repository(workspaceId, { remote_url: `https://github.com/acme/${unique('r')}.git` });
  const gitlab = await world.api.repository(workspaceId, { remote_url: `https://gitlab.com/acme/${unique('r')}.git` });
  const profile = await world.api.create<{ id: string }>('/api/agent-profiles', {
    name: unique('agent'),
    command: 'test-agent',
    supports_mcp: true,
  });
  const task = await world.api.task(workspaceId, {
    title: unique('task'),
    agent_profile_id: profile.id,
    repository_ids: [github.id, gitlab.id],
  });
  return { workspaceId, githubId: github.id, gitlabId: gitlab.id, profileId: profile.id, taskId: task.id };
}

/** A launched session of a fresh task, waiting for input. */
async function launched(world: AuditWorld) {
  const { taskId, workspaceId } = await base(world);
  const session = await world.api.launch(taskId);
  return { taskId, workspaceId, sessionId: session.session_id };
}

/** A session row of a fresh task in `state` (no agentctl behind it). */
async function sessionIn(world: AuditWorld, state: 'failed' | 'completed') {
  const { taskId, workspaceId } = await base(world);
  const sessionId = unique('session');
  const config = launchConfigFor({ id: sessionId, taskId, workspaceId });
  await world.backend.uow.read.sessions.insert(sessionRow(config, { at: AT, state }));
  return { taskId, workspaceId, sessionId };
}

/** The event each route's change records (with the token that asked as its actor). */
export const RECORDS: Record<string, string> = {
  'POST /api/console/login-links': 'login_link.created',
  'POST /api/tokens': 'token.created',
  'DELETE /api/tokens/:id': 'token.revoked',
  'POST /api/agent-profiles': 'agent_profile.created',
  'PATCH /api/agent-profiles/:id': 'agent_profile.updated',
  'DELETE /api/agent-profiles/:id': 'agent_profile.deleted',
  'POST /api/workspaces': 'workspace.created',
  'PUT /api/workspaces/:id/credentials/:provider': 'credential.set',
  'DELETE /api/workspaces/:id/credentials/:provider': 'credential.removed',
  'POST /api/repositories': 'repository.created',
  'POST /api/tasks': 'task.created',
  'PATCH /api/tasks/:id': 'task.updated',
  'DELETE /api/tasks/:id': 'task.archived',
  'POST /api/tasks/:id/unarchive': 'task.updated',
  'DELETE /api/tasks/:id/permission-grants/:grant_id': 'permission_grant.revoked',
  'POST /api/tasks/:id/workspace-sources': 'task.updated',
  'DELETE /api/tasks/:id/workspace-sources/:repository_id': 'task.updated',
  'POST /api/tasks/:id/mrs': 'mr.linked',
  'POST /api/tasks/:id/mrs/:mrId/lifecycle/evaluate': 'mr.evaluated',
  'POST /api/tasks/:id/prs': 'pr.linked',
  'POST /api/tasks/:id/sessions': 'session.state_changed',
  'POST /api/sessions/:id/stop': 'session.state_changed',
  'POST /api/sessions/:id/relaunch': 'session.state_changed',
  'POST /api/sessions/:id/resume': 'session.state_changed',
  'POST /api/sessions/:id/cancel': 'turn.cancel_requested',
  'POST /api/sessions/:id/prompts': 'queue.changed',
  'DELETE /api/sessions/:id/prompts/:prompt_id': 'queue.changed',
  'POST /api/questions/:id/answer': 'question.answered',
};

export const RECIPES: Record<string, Recipe> = {
  'POST /api/console/login-links': () => ({ path: '/api/console/login-links' }),

  'POST /api/tokens': () => ({ path: '/api/tokens', body: { name: unique('minted'), role: 'viewer' } }),
  'DELETE /api/tokens/:id': async (world) => {
    const victim = await world.backend.tokens.create(unique('victim'));
    world.secrets.push(victim.token);
    return { path: `/api/tokens/${victim.id}` };
  },

  'POST /api/agent-profiles': (world) => {
    world.secrets.push('env-value-created-0123');
    const body = { name: unique('p'), command: 'agent', supports_mcp: true, env: { KEY: 'env-value-created-0123' } };
    return { path: '/api/agent-profiles', body };
  },
  'PATCH /api/agent-profiles/:id': async (world) => {
    const { profileId } = await base(world);
    world.secrets.push('env-value-patched-4567');
    return { path: `/api/agent-profiles/${profileId}`, body: { env: { KEY: 'env-value-patched-4567' } } };
  },
  'DELETE /api/agent-profiles/:id': async (world) => {
    const profile = await world.api.create<{ id: string }>('/api/agent-profiles', {
      name: unique('gone'),
      command: 'agent',
      supports_mcp: true,
    });
    return { path: `/api/agent-profiles/${profile.id}` };
  },

  'POST /api/workspaces': () => ({ path: '/api/workspaces', body: { name: unique('ws') } }),
  'PUT /api/workspaces/:id/credentials/:provider': async (world) => {
    const { workspaceId } = await base(world);
    world.secrets.push('glpat-credential-value-0123456789');
    return {
      path: `/api/workspaces/${workspaceId}/credentials/gitlab`,
      body: { token: 'glpat-credential-value-0123456789', username: 'bot' },
    };
  },
  'DELETE /api/workspaces/:id/credentials/:provider': async (world) => {
    const { workspaceId } = await base(world);
    world.secrets.push('ghp-credential-value-9876543210');
    const put = await world.api.request('PUT', `/api/workspaces/${workspaceId}/credentials/github`, {
      token: 'ghp-credential-value-9876543210',
      username: 'bot',
    });
    if (put.status !== 200) throw new Error(`PUT credentials -> ${put.status}`);
    return { path: `/api/workspaces/${workspaceId}/credentials/github` };
  },
  'POST /api/repositories': async (world) => {
    const { workspaceId } = await base(world);
    return {
      path: '/api/repositories',
      body: { workspace_id: workspaceId, remote_url: `https://github.com/acme/${unique('new')}.git` },
    };
  },

  'POST /api/tasks': async (world) => {
    const { workspaceId } = await base(world);
    return { path: '/api/tasks', body: { workspace_id: workspaceId, title: unique('t') } };
  },
  'PATCH /api/tasks/:id': async (world) => ({
    path: `/api/tasks/${(await base(world)).taskId}`,
    body: { title: unique('renamed') },
  }),
  'DELETE /api/tasks/:id': async (world) => ({ path: `/api/tasks/${(await base(world)).taskId}` }),
  'POST /api/tasks/:id/unarchive': async (world) => {
    const { taskId } = await base(world);
    if ((await world.api.request('DELETE', `/api/tasks/${taskId}`)).status !== 204) throw new Error('archive failed');
    return { path: `/api/tasks/${taskId}/unarchive`, body: {} };
  },
  'DELETE /api/tasks/:id/permission-grants/:grant_id': async (world) => {
    const { taskId } = await base(world);
    const grantId = unique('grant');
    await world.backend.uow.read.permissionGrants.insertIfAbsent({
      ...{ id: grantId, taskId, toolKind: 'execute', title: 'git status', grantedBy: 'operator' },
      ...{ sessionId: null, createdAt: AT },
    });
    return { path: `/api/tasks/${taskId}/permission-grants/${grantId}` };
  },
  'POST /api/tasks/:id/workspace-sources': async (world) => {
    const { workspaceId } = await base(world);
    const task = await world.api.task(workspaceId, { title: unique('bare') });
    const repository = await world.api.repository(workspaceId, {
      remote_url: `https://github.com/acme/${unique('src')}.git`,
    });
    return { path: `/api/tasks/${task.id}/workspace-sources`, body: { sources: [{ repository_id: repository.id }] } };
  },
  'DELETE /api/tasks/:id/workspace-sources/:repository_id': async (world) => {
    const { taskId, githubId } = await base(world);
    return { path: `/api/tasks/${taskId}/workspace-sources/${githubId}` };
  },
  'POST /api/tasks/:id/mrs': async (world) => {
    const { taskId, gitlabId } = await base(world);
    return { path: `/api/tasks/${taskId}/mrs`, body: { repository_id: gitlabId, project_path: 'acme/app', iid: 1 } };
  },
  'POST /api/tasks/:id/mrs/:mrId/lifecycle/evaluate': async (world) => {
    const { taskId, gitlabId } = await base(world);
    const mr = await world.api.create<{ id: string }>(`/api/tasks/${taskId}/mrs`, {
      repository_id: gitlabId,
      project_path: 'acme/app',
      iid: 2,
    });
    return { path: `/api/tasks/${taskId}/mrs/${mr.id}/lifecycle/evaluate`, body: {} };
  },
  'POST /api/tasks/:id/prs': async (world) => {
    const { taskId, githubId } = await base(world);
    return { path: `/api/tasks/${taskId}/prs`, body: { repository_id: githubId, number: 1 } };
  },

  'POST /api/tasks/:id/sessions': async (world) => ({
    path: `/api/tasks/${(await base(world)).taskId}/sessions`,
    body: {},
  }),
  'POST /api/sessions/:id/stop': async (world) => ({
    path: `/api/sessions/${(await launched(world)).sessionId}/stop`,
    body: {},
  }),
  'POST /api/sessions/:id/relaunch': async (world) => {
    const { sessionId } = await launched(world);
    if ((await world.api.stopSession(sessionId)).status !== 200) throw new Error('stop failed');
    return { path: `/api/sessions/${sessionId}/relaunch`, body: {} };
  },
  'POST /api/sessions/:id/resume': async (world) => {
    const { sessionId } = await launched(world);
    if ((await world.api.stopSession(sessionId)).status !== 200) throw new Error('stop failed');
    return { path: `/api/sessions/${sessionId}/resume`, body: {} };
  },
  'POST /api/sessions/:id/cancel': async (world) => {
    const { sessionId } = await launched(world);
    const queued = await world.api.queuePrompt(sessionId, 'work');
    const promptId = queued.body.queued_prompt_id;
    await waitUntil(() => world.agentctl.delivered.some((d) => d.promptId === promptId) || undefined, {
      timeoutMs: 10_000,
      intervalMs: 10,
      what: 'the prompt to be delivered',
    });
    return { path: `/api/sessions/${sessionId}/cancel`, body: {} };
  },
  'POST /api/sessions/:id/prompts': async (world) => ({
    path: `/api/sessions/${(await launched(world)).sessionId}/prompts`,
    body: { prompt: 'hello' },
  }),
  'DELETE /api/sessions/:id/prompts/:prompt_id': async (world) => {
    // A failed session takes prompts but runs none: the prompt stays queued, so it can be cancelled.
    const { sessionId } = await sessionIn(world, 'failed');
    const queued = await world.api.queuePrompt(sessionId, 'later');
    return { path: `/api/sessions/${sessionId}/prompts/${queued.body.queued_prompt_id}` };
  },
  'POST /api/questions/:id/answer': async (world) => {
    const { taskId, sessionId } = await sessionIn(world, 'completed');
    const id = unique('question');
    await world.backend.uow.read.questions.insert({
      id,
      taskId,
      sessionId,
      callId: `call-${id}`,
      kind: 'user',
      questions: [{ id: 'q1', prompt: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }],
      context: null,
      state: 'pending',
      answers: null,
      answeredBy: null,
      closedReason: null,
      answerDelivery: null,
      createdAt: AT,
      answeredAt: null,
      expiresAt: '2999-01-01T00:00:00.000Z',
    });
    return { path: `/api/questions/${id}/answer`, body: { answers: [{ question_index: 0, option: 'A' }] } };
  },
};
