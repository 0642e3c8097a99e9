import { z } from 'zod';
import {
  askParentQuestionTool,
  askUserQuestionTool,
  canonicalJson,
  type ErrorCode,
  sha256Hex,
  type TaskState,
} from '@kandev/protocol';
import type { AgentSessionState } from '../sessions/agent-session';
import { isEnded } from '../sessions/session-lifecycle';
import { type QuestionItem, StoredQuestionItemSchema } from '../questions/question';

// Pure: an autopilot child's question to its direct parent. Its lifecycle (pending -> answered |
// superseded | stale, each move a compare-and-set in the store), the tool's arguments, the tool-call
// identity, when a pending question has gone stale without anyone writing it down, and the views.

export const PARENT_QUESTION_STATUSES = ['pending', 'answered', 'superseded', 'stale'] as const;
export type ParentQuestionStatus = (typeof PARENT_QUESTION_STATUSES)[number];
export const ParentQuestionStatusSchema = z.enum(PARENT_QUESTION_STATUSES);

/** Only a pending question moves, and only once: the first writer wins. */
export const PARENT_QUESTION_TRANSITIONS = {
  pending: ['answered', 'superseded', 'stale'],
  answered: [],
  superseded: [],
  stale: [],
} as const satisfies Record<ParentQuestionStatus, readonly ParentQuestionStatus[]>;

export function canMove(from: ParentQuestionStatus, to: ParentQuestionStatus): boolean {
  return (PARENT_QUESTION_TRANSITIONS[from] as readonly ParentQuestionStatus[]).includes(to);
}

/** New explicit input reached the child: an operator's prompt, or a task's message without a reply id. */
export const SUPERSEDE_REASONS = ['operator_prompt', 'task_message'] as const;
export type SupersedeReason = (typeof SUPERSEDE_REASONS)[number];

/** The asking session or task is gone: ended, resumed since, finished (done), archived, deleted. */
export const STALE_REASONS = [
  'session_ended',
  'session_resumed',
  'session_missing',
  'task_done',
  'task_archived',
  'task_deleted',
  // A permission request's parent question left unanswered for KANDEV_PERMISSION_TIMEOUT_MS.
  'timeout',
] as const;
export type StaleReason = (typeof STALE_REASONS)[number];

export const CLOSED_REASONS = [...SUPERSEDE_REASONS, ...STALE_REASONS] as const;
export type ParentClosedReason = (typeof CLOSED_REASONS)[number];
export const ParentClosedReasonSchema = z.enum(CLOSED_REASONS);

/** ask_parent_question_kandev's arguments: the operator tool's questions, plus what is blocked. */
export type AskParentQuestionArgs = z.infer<typeof askParentQuestionTool.input>;

export interface ParentQuestion {
  id: string;
  childTaskId: string;
  childSessionId: string;
  /** The child session's MCP token hash when it asked; a resume issues a new token. */
  childSessionTokenHash: string;
  /** The direct parent when it was asked (only the current parent may answer). */
  parentTaskId: string;
  /** The tool-call identity (see parentQuestionCallKey). */
  callKey: string;
  /** agentctl's call id of the first call (random per forward: informational only). */
  callId: string;
  /** The child's prompt in flight when it asked (null: no turn, e.g. an MCP-only client). */
  turnPromptId: string | null;
  questions: QuestionItem[];
  context: string | null;
  blockedReason: string;
  status: ParentQuestionStatus;
  closedReason: ParentClosedReason | null;
  /** The 'parent_question' entry in the child's conversation. */
  messageId: string;
  /** The prompt queued for the parent. */
  parentPromptId: string;
  answer: string | null;
  answeredByTaskId: string | null;
  answeredBySessionId: string | null;
  /** The prompt queued for the child with the answer. */
  answerPromptId: string | null;
  createdAt: string;
  answeredAt: string | null;
  closedAt: string | null;
}

export const ASK_PARENT_QUESTION = askParentQuestionTool.name;

/**
 * Why this caller may not ask its parent (null: it may), from the task's facts read now (not from the
 * launch config): only an autopilot task with a direct parent has someone to ask. Checked before the
 * catalogue's served check, so a root or a normal task hears why; a session launched before a reparent
 * keeps its tools (the served check refuses it) until a resume rebuilds them.
 */
export function askRefusal(caller: {
  id: string;
  autopilot: boolean;
  parentId: string | null;
}): { code: ErrorCode; message: string } | null {
  if (!caller.autopilot) {
    return {
      code: 'failed_precondition',
      message:
        `task ${caller.id} is not an autopilot task: ${ASK_PARENT_QUESTION} is for autopilot subtasks; ` +
        `ask the operator with ${askUserQuestionTool.name}`,
    };
  }
  if (caller.parentId === null) {
    return {
      code: 'failed_precondition',
      message:
        `task ${caller.id} is an autopilot task with no parent: there is no parent to ask; proceed with your ` +
        'best judgment and state the assumptions you make',
    };
  }
  return null;
}

/**
 * The tool-call identity. agentctl's call id is random per forward, so a retried call is recognised by
 * what it is: the same child session, in the same turn (the prompt in flight), with the same arguments.
 */
export function parentQuestionCallKey(call: { sessionId: string; turnPromptId: string | null; args: unknown }) {
  const material = JSON.stringify([call.sessionId, call.turnPromptId, canonicalJson(call.args)]);
  return sha256Hex(material);
}

/** What the stale rule looks at: the child task and the asking session as they are now. */
export interface ChildFacts {
  task: { archivedAt: string | null; state: TaskState } | undefined;
  session: { state: AgentSessionState; mcpTokenHash: string } | undefined;
}

/**
 * Why a pending question can no longer be answered usefully, or null while it can. Nothing has to
 * write this down first: whoever reads a pending question (the answer path, the gate, listings)
 * applies the rule and records the move by compare-and-set.
 */
export function staleReasonOf(question: Pick<ParentQuestion, 'childSessionTokenHash'>, facts: ChildFacts) {
  if (facts.task === undefined) return 'task_deleted' as const;
  if (facts.task.archivedAt !== null) return 'task_archived' as const;
  // A finished task is terminal: an answer would start a turn on work that is over.
  if (facts.task.state === 'done') return 'task_done' as const;
  if (facts.session === undefined) return 'session_missing' as const;
  if (isEnded(facts.session.state)) return 'session_ended' as const;
  // Only a resume changes the token; a resumed child must not find its old question pending.
  if (facts.session.mcpTokenHash !== question.childSessionTokenHash) return 'session_resumed' as const;
  return null;
}

/** A parent question as the parent's tool, REST and the conversation show it. */
export const ParentQuestionViewSchema = z
  .object({
    id: z.string(),
    child_task_id: z.string(),
    child_session_id: z.string(),
    parent_task_id: z.string(),
    status: ParentQuestionStatusSchema,
    closed_reason: ParentClosedReasonSchema.nullable(),
    questions: z.array(StoredQuestionItemSchema),
    context: z.string().nullable(),
    blocked_reason: z.string(),
    tool_call: z.object({ call_id: z.string(), turn_prompt_id: z.string().nullable(), call_key: z.string() }).strict(),
    message_id: z.string(),
    parent_prompt_id: z.string(),
    answer: z
      .object({
        text: z.string(),
        by_task_id: z.string().nullable(),
        by_session_id: z.string().nullable(),
        answer_prompt_id: z.string().nullable(),
      })
      .strict()
      .nullable(),
    created_at: z.string(),
    answered_at: z.string().nullable(),
    closed_at: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'ParentQuestion' });

/** Pending, answered, superseded or stale, as the parent's tool and REST show it. */
export function toParentQuestionView(question: ParentQuestion): z.output<typeof ParentQuestionViewSchema> {
  return {
    id: question.id,
    child_task_id: question.childTaskId,
    child_session_id: question.childSessionId,
    parent_task_id: question.parentTaskId,
    status: question.status,
    closed_reason: question.closedReason,
    questions: question.questions,
    context: question.context,
    blocked_reason: question.blockedReason,
    tool_call: { call_id: question.callId, turn_prompt_id: question.turnPromptId, call_key: question.callKey },
    message_id: question.messageId,
    parent_prompt_id: question.parentPromptId,
    answer:
      question.answer === null
        ? null
        : {
            text: question.answer,
            by_task_id: question.answeredByTaskId,
            by_session_id: question.answeredBySessionId,
            answer_prompt_id: question.answerPromptId,
          },
    created_at: question.createdAt,
    answered_at: question.answeredAt,
    closed_at: question.closedAt,
  };
}

export type ParentQuestionView = ReturnType<typeof toParentQuestionView>;

/** The 'parent_question' message's metadata: the record as it stands (rewritten on every move). */
export function questionMessageMetadata(question: ParentQuestion): Record<string, unknown> {
  const view = toParentQuestionView(question);
  return { ...view, question_id: question.id };
}
