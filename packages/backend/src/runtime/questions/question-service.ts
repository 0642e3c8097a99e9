import { AppError } from '@kandev/protocol';
import type { Replicas } from '../../platform/cluster/replicas';
import type { Logger } from '../../platform/logger/logger';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { PromptKicker } from '../prompt-queue/drain-gate';
import { recordTaskPrompt } from '../prompt-queue/task-prompt';
import { newId } from '../../platform/store/row-values';
import { DEFAULT_PAGE_LIMIT, decodeCursor, pageOf } from '../../platform/store/page-cursor';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import {
  type AskUserQuestionArgs,
  type ListQuestionsQuery,
  QuestionCursorSchema,
  type QuestionPage,
  type ClosedReason,
  describeAnswers,
  effectiveState,
  parseAnswers,
  type Question,
  type QuestionKind,
  type QuestionState,
  toQuestionItems,
} from './question';
import { QuestionWaiters } from './question-waiters';

/** Starts a timer and returns its cancel; tests inject one they fire themselves. */
export type StartTimer = (ms: number, fire: () => void) => () => void;

export const realTimer: StartTimer = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

export interface QuestionServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  /** How long a question waits for the operator (KANDEV_QUESTION_TIMEOUT_MS). */
  timeoutMs: number;
  logger: Logger;
  startTimer?: StartTimer;
  /** Drains the session a late answer was queued for (absent: it waits for the next kick). */
  prompts?: PromptKicker;
  /** The backend replicas on this database (one process: only this one, signals to itself only). */
  replicas: QuestionReplicas;
  metrics?: Pick<BackendMetrics, 'questionAnswered'>;
}

/**
 * What questions need from the replicas (platform/cluster/replicas.ts): this one's id (recorded as a
 * question's holder), whether a holder is still running, and a nudge whenever a question changed on any
 * replica (or a resync after nudges may have been missed): the holder then re-reads the row.
 */
export type QuestionReplicas = Pick<Replicas, 'replicaId' | 'isAlive' | 'alive' | 'subscribe'>;

export interface AskRequest {
  taskId: string;
  sessionId: string;
  callId: string;
  args: AskUserQuestionArgs;
  /** 'user' unless given. A permission question is answerable only while its request is held. */
  kind?: QuestionKind;
  /** How long this question waits (default: the service's timeoutMs). */
  timeoutMs?: number;
  /** Aborted when the call's channel drops: the question ends 'cancelled' ('session_stopped' as the reason). */
  signal: AbortSignal;
  /** Called once the pending question is committed. */
  onRecorded: (question: Question) => void;
}

/**
 * How an answer reached the agent: the waiting call, or (that call being gone) a prompt queued for the
 * session's agent, or nothing (the call is gone and no agent of the session will ever take a prompt).
 */
export type AnswerDelivery =
  { to: 'waiting_call' } | { to: 'queued_prompt'; queuedPromptId: string } | { to: 'undeliverable'; reason: string };

/** Sessions that will never run again take no prompt (a failed one does: it drains after a resume). */
const CLOSED_SESSION_STATES: ReadonlySet<string> = new Set(['completed', 'cancelled']);

/** Operator questions: ask and hold the call open, answer by compare-and-set, end unanswered. */
export class QuestionService {
  private readonly waiters = new QuestionWaiters();
  private readonly startTimer: StartTimer;

  constructor(private readonly deps: QuestionServiceDeps) {
    this.startTimer = deps.startTimer ?? realTimer;
    // An answer, expiry or stop committed on another replica settles a call held here, from the row.
    deps.replicas.subscribe('question', {
      signal: (questionId) => {
        if (this.waiters.has(questionId)) void this.settleFromRow(questionId);
      },
      resync: () => {
        for (const questionId of this.waiters.ids()) void this.settleFromRow(questionId);
      },
    });
  }

  /** Records a pending question and resolves with it once settled (answered, expired or cancelled). */
  async ask(request: AskRequest): Promise<Question> {
    const id = newId();
    const settled = this.waiters.add(id, request.sessionId);
    let stopTimer: (() => void) | undefined;
    // A signal aborted with reason 'session_stopped' (the agent exited) says so; any other abort: cancelled.
    const onAbort = () =>
      void this.close(id, request.signal.reason === 'session_stopped' ? 'session_stopped' : 'cancelled');
    const timeoutMs = request.timeoutMs ?? this.deps.timeoutMs;
    try {
      const now = this.deps.clock();
      const question: Question = {
        id,
        taskId: request.taskId,
        sessionId: request.sessionId,
        callId: request.callId,
        kind: request.kind ?? 'user',
        questions: toQuestionItems(request.args),
        context: request.args.context ?? null,
        state: 'pending',
        answers: null,
        answeredBy: null,
        closedReason: null,
        answerDelivery: null,
        createdAt: now.toISOString(),
        answeredAt: null,
        expiresAt: new Date(now.getTime() + timeoutMs).toISOString(),
      };
      await this.deps.uow.read.questions.insert(question, this.deps.replicas.replicaId);
      request.onRecorded(question);
      stopTimer = this.startTimer(timeoutMs, () => void this.close(id, 'timeout'));
      request.signal.addEventListener('abort', onAbort, { once: true });
      if (request.signal.aborted) onAbort();
      return await settled;
    } finally {
      stopTimer?.();
      request.signal.removeEventListener('abort', onAbort);
      this.waiters.remove(id);
    }
  }

  /** Ends a pending question unanswered (compare-and-set), then hands the settled row to its waiter. */
  private async close(id: string, reason: ClosedReason): Promise<void> {
    try {
      await this.deps.uow.read.questions.close(id, reason);
      await this.settleFromRow(id);
    } catch (err) {
      this.deps.logger.error({ err, questionId: id }, 'could not close a question');
      this.waiters.fail(id, err);
    }
  }

  /** Never throws: a failed read leaves the waiter to its timeout, abort or the next signal. */
  private async settleFromRow(id: string): Promise<void> {
    try {
      const question = await this.deps.uow.read.questions.findById(id);
      if (question !== undefined && question.state !== 'pending') this.waiters.settle(question);
    } catch (err) {
      this.deps.logger.error({ err, questionId: id }, 'could not read a question to settle its call');
    }
  }

  /** Whether another replica that is still running holds the question's call. */
  private async heldElsewhere(id: string): Promise<boolean> {
    const replicas = this.deps.replicas;
    if (replicas === undefined || this.waiters.has(id)) return false;
    const holder = await this.deps.uow.read.questions.holderOf(id);
    if (holder === null || holder === undefined || holder === replicas.replicaId) return false;
    return replicas.isAlive(holder);
  }

  /** The sessions stopped: their pending questions end 'session_stopped' (held calls return at once). */
  async endForSessions(sessionIds: readonly string[]): Promise<void> {
    await this.deps.uow.read.questions.cancelForSessions(sessionIds);
    for (const id of this.waiters.forSessions(sessionIds)) await this.settleFromRow(id);
  }

  /**
   * At boot: writes down the expiry of questions left pending past it (their calls died with the
   * process), and cancels pending permission questions (their requests were already rejected).
   */
  async expireStale(): Promise<number> {
    const now = this.deps.clock().toISOString();
    const expired = await this.deps.uow.read.questions.expireStale(now);
    const alive = await this.deps.replicas.alive();
    return expired + (await this.deps.uow.read.questions.cancelOrphanedPermissions(now, alive));
  }

  async list(filter: { state?: QuestionState; taskId?: string }): Promise<{ now: string; questions: Question[] }> {
    const now = this.deps.clock().toISOString();
    // Stored state 'pending' may already be expired by time; filter on the state a reader sees.
    const stored = filter.state === 'expired' ? undefined : filter.state;
    const rows = await this.deps.uow.read.questions.list({ state: stored, taskId: filter.taskId });
    const questions = filter.state === undefined ? rows : rows.filter((q) => effectiveState(q, now) === filter.state);
    return { now, questions };
  }

  /** GET /api/questions: a page of questions (oldest first by default) and the count in each state, one read. */
  /** `workspaceIds`: the caller's workspaces (a limited token); null: every workspace. */
  async page(query: ListQuestionsQuery, workspaceIds: readonly string[] | null = null): Promise<QuestionPage> {
    const now = this.deps.clock().toISOString();
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const sort = query.sort ?? 'created_asc';
    const after = query.cursor === undefined ? undefined : decodeCursor(QuestionCursorSchema, query.cursor);
    // A keyset position only means something in the order it was read in.
    if (after !== undefined && (after.s ?? 'created_asc') !== sort) {
      throw new AppError(
        'invalid_argument',
        `cursor was returned for sort=${after.s ?? 'created_asc'}; pass the same sort`,
        {
          field: 'cursor',
        },
      );
    }
    const scope = {
      taskId: query.task_id,
      workspaceId: query.workspace_id,
      workspaceIds: workspaceIds ?? undefined,
      now,
    };
    return this.deps.uow.transaction(async (stores) => {
      const rows = await stores.questions.listPage({
        ...scope,
        state: query.state,
        after: after === undefined ? undefined : { createdAt: after.c, id: after.i },
        newestFirst: sort === 'created_desc',
        limit: limit + 1,
      });
      const page = pageOf(rows, limit, (question) => ({ c: question.createdAt, i: question.id, s: sort }));
      return {
        now,
        questions: page.items,
        nextCursor: page.nextCursor,
        counts: await stores.questions.countsByState(scope),
      };
    });
  }

  async get(id: string): Promise<{ now: string; question: Question }> {
    const question = await this.deps.uow.read.questions.findById(id);
    if (question === undefined) throw new AppError('not_found', `question ${id} not found`);
    return { now: this.deps.clock().toISOString(), question };
  }

  /**
   * The operator's answer: 404 unknown, 409 no longer pending (the compare-and-set lost), 400 when it
   * does not fit the questions. A held call gets it directly (held on another replica: through the
   * signal its commit sends). When the call is gone (a restart, or its replica died) it is queued, in
   * the same transaction, as a prompt for the question's session if that session has an agent that can
   * still take one; otherwise (an MCP-only session, or one that will never run again) it is recorded
   * as undeliverable, never queued where nothing would drain it.
   */
  async answer(id: string, body: unknown): Promise<{ question: Question; delivery: AnswerDelivery; now: string }> {
    const now = this.deps.clock().toISOString();
    // Read before the transaction (presence is another connection); the holder never changes.
    const heldElsewhere = await this.heldElsewhere(id);
    const result = await this.deps.uow.transaction(async (stores) => {
      const question = await stores.questions.findById(id);
      if (question === undefined) throw new AppError('not_found', `question ${id} not found`);
      const conflict = () =>
        new AppError('failed_precondition', `question ${id} is ${effectiveState(question, now)}, not pending`);
      if (effectiveState(question, now) !== 'pending') throw conflict();
      const answers = parseAnswers(question.questions, body);
      // The agent's request died with its call (a restart): a late answer could reach nobody.
      const held = heldElsewhere || this.waiters.has(id);
      if (question.kind === 'permission' && !held) {
        throw new AppError(
          'failed_precondition',
          `question ${id}: the agent's permission request is no longer waiting`,
        );
      }
      const unreachable = held ? undefined : await lateAnswerUnreachable(stores, question.sessionId);
      const to = held ? 'waiting_call' : unreachable === undefined ? 'queued_prompt' : 'undeliverable';
      if (!(await stores.questions.markAnswered(id, { answers, by: 'operator', delivery: to }, now))) throw conflict();
      const answered: Question = {
        ...question,
        ...{ state: 'answered', answers, answeredBy: 'operator', answeredAt: now, answerDelivery: to },
      };
      if (held) {
        return { question: answered, delivery: { to: 'waiting_call' } as AnswerDelivery, queuedFor: null };
      }
      if (unreachable !== undefined) {
        const delivery: AnswerDelivery = { to: 'undeliverable', reason: unreachable };
        return { question: answered, delivery, queuedFor: null };
      }
      const { queued } = await recordTaskPrompt(stores, {
        taskId: question.taskId,
        sessionId: question.sessionId,
        author: 'operator',
        text: lateAnswerPrompt(answered),
        metadata: { question_id: id, answers },
        now,
      });
      const delivery: AnswerDelivery = { to: 'queued_prompt', queuedPromptId: queued.id };
      return { question: answered, delivery, queuedFor: queued.sessionId };
    });
    if (result.delivery.to === 'waiting_call') this.waiters.settle(result.question);
    if (result.queuedFor !== null) void this.deps.prompts?.kick(result.queuedFor);
    this.deps.metrics?.questionAnswered(result.question.createdAt, now);
    const reason = result.delivery.to === 'undeliverable' ? result.delivery.reason : undefined;
    this.deps.logger.info({ questionId: id, delivery: result.delivery.to, reason }, 'question answered');
    return { question: result.question, delivery: result.delivery, now };
  }

  /** Calls held open right now (for tests and diagnostics). */
  get waiting(): number {
    return this.waiters.size;
  }
}

/**
 * Why a late answer cannot be queued for the question's session (undefined: it can). Only an agent
 * takes prompts: an MCP-only session's client asked over MCP and its call is gone, so a prompt for it
 * would stay queued for ever.
 */
async function lateAnswerUnreachable(stores: Stores, sessionId: string): Promise<string | undefined> {
  const session = await stores.sessions.findById(sessionId);
  if (session === undefined) return `session ${sessionId} no longer exists`;
  if (session.launchConfig.agent === null) {
    return `the call that asked it is gone and session ${sessionId} has no agent to take a prompt`;
  }
  if (CLOSED_SESSION_STATES.has(session.state)) {
    return `the call that asked it is gone and session ${sessionId} is ${session.state}; it takes no prompts`;
  }
  return undefined;
}

function lateAnswerPrompt(question: Question): string {
  return (
    `The operator answered your earlier question ${question.id} after that tool call had ended:\n` +
    `${describeAnswers(question)}\nTake this answer into account from here on.`
  );
}
