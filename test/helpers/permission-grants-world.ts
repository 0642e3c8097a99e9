// A backend in process for permission grants (docs/agents.md): one workspace with
// root (a normal task: sessions sRoot and sRoot2 ask the operator), child (autopilot under root: sChild
// asks root) and solo (an autopilot root: sSolo has nobody to ask). `restart()` opens the same database
// again (a new connection, as a restarted process would) under a fresh backend.
import { randomUUID } from 'node:crypto';
import type { PermissionOptionInfo, PermissionRequestInfo, QuestionCapability } from '@kandev/protocol';
import {
  type Backend,
  createInProcessBackend,
  ENDPOINT,
  FakeAgentctl,
  fakeAgentctlPort,
  launchConfigFor,
  openTestDatabase,
  sessionRow,
  type ToolCallContext,
} from '@kandev/backend/testing';
import { MESSAGE_TASK } from './autopilot';
import type { Cleanup } from './cleanup';

export const OPTIONS: readonly PermissionOptionInfo[] = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
];

export function permissionRequest(
  sessionId: string,
  taskId: string,
  title = 'git add src/a.ts',
  toolKind: string | null = 'execute',
): PermissionRequestInfo {
  return { requestId: `r-${randomUUID()}`, sessionId, taskId, toolCallId: 'tc-1', title, toolKind, options: OPTIONS };
}

const TASKS = [
  ['root', null, false],
  ['child', 'root', true],
  ['solo', null, true],
] as const;

const SESSIONS: readonly (readonly [string, string, QuestionCapability])[] = [
  ['sRoot', 'root', 'user'],
  ['sRoot2', 'root', 'user'],
  ['sChild', 'child', 'parent'],
  ['sSolo', 'solo', 'none'],
];

export async function createGrantsWorld(cleanup: Cleanup) {
  const agentctl = new FakeAgentctl();
  const port = fakeAgentctlPort(agentctl);
  const first = await createInProcessBackend(cleanup, { agentctl: port });
  const at = new Date().toISOString();
  const { uow } = first.backend;
  await uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: at });
  for (const [id, parentId, autopilot] of TASKS) {
    await uow.read.tasks.insert({
      ...{ id, workspaceId: 'w', parentId, title: `task ${id}`, state: 'todo' as const, autopilot },
      ...{ agentProfileId: null, archivedAt: null, createdAt: at, updatedAt: at },
    });
  }
  for (const [id, taskId, questionCapability] of SESSIONS) {
    const config = launchConfigFor({ id, taskId, workspaceId: 'w' }, { questionCapability });
    await uow.read.sessions.insert(sessionRow(config, { agentctlAddress: ENDPOINT.grpcAddress, at }));
    agentctl.held.set(id, config);
  }

  /** A new backend over a new connection to the same database: nothing carried over in memory. */
  async function restart(): Promise<Backend> {
    if (first.dataDir === undefined) throw new Error('the first backend has no data dir');
    const db = await openTestDatabase(first.dataDir);
    cleanup.defer(() => db.destroy());
    return (await createInProcessBackend(cleanup, { db, agentctl: port })).backend;
  }

  return { backend: first.backend, restart };
}

export function decide(backend: Backend, request: PermissionRequestInfo): Promise<string | null> {
  return backend.permissions.decide(request, new AbortController().signal);
}

/** The pending operator question of a session, once recorded (read again until it is). */
export async function pendingQuestion(backend: Backend, sessionId: string): Promise<string> {
  for (;;) {
    const { questions } = await backend.questions.list({ state: 'pending' });
    const found = questions.find((q) => q.sessionId === sessionId);
    if (found !== undefined) return found.id;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function answer(backend: Backend, questionId: string, option: string): Promise<void> {
  await backend.questions.answer(questionId, { answers: [{ question_index: 0, option }] });
}

/** A request asked of the operator, answered with `option`: what the agent got. */
export async function askAndAnswer(backend: Backend, request: PermissionRequestInfo, option: string) {
  const decided = decide(backend, request);
  await answer(backend, await pendingQuestion(backend, request.sessionId), option);
  return decided;
}

/** The child's pending parent question, once recorded. */
export async function pendingParentQuestion(backend: Backend): Promise<string> {
  for (;;) {
    const pending = (await backend.uow.read.parentQuestions.listForChild('child')).filter(
      (q) => q.status === 'pending',
    );
    if (pending[0] !== undefined) return pending[0].id;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** root's agent replies to the child's parent question with message_task_kandev. */
export async function parentReplies(backend: Backend, questionId: string, prompt: string): Promise<void> {
  const handler = backend.toolHandlers[MESSAGE_TASK];
  const session = await backend.uow.read.sessions.findById('sRoot');
  if (handler === undefined || session === undefined) throw new Error('no message_task_kandev or no sRoot');
  const context: ToolCallContext = {
    ...{ callId: `call-${randomUUID()}`, toolName: MESSAGE_TASK, sessionId: 'sRoot', taskId: 'root' },
    ...{ workspaceId: 'w', session, reportProgress: () => undefined, signal: new AbortController().signal },
  };
  await handler(context, { task_id: 'child', prompt, reply_to_question_id: questionId });
}
