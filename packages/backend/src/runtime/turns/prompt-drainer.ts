import { AppError, isAppError, type RuntimeSessionState } from '@kandev/protocol';
import type { Replicas } from '../../platform/cluster/replicas';
import type { Agentctls } from '../agentctl/agentctls';
import type { Logger } from '../../platform/logger/logger';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { AgentSession } from '../sessions/agent-session';
import { type BackoffPolicy, canRetry, retryDelayMs } from '../../platform/retry/retry-backoff';
import type { SessionLanes } from '../sessions/session-lanes';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import {
  type AgentVerdict,
  agentExitedError,
  judgeAgent,
  promptFailureKind,
  promptRejectedError,
} from './agent-verdict';
import { applyAgentGone, applyTurnEnded } from './turn-outcome';
import { decideDrain } from '../prompt-queue/drain-decision';
import { type DrainGate, OPEN_GATE, type PromptKicker } from '../prompt-queue/drain-gate';
import type { QueuedPrompt } from '../prompt-queue/queued-prompt';

export interface PromptDrainerDeps {
  uow: UnitOfWork;
  clock: () => Date;
  agentctls: Agentctls;
  lanes: SessionLanes;
  /** Holds a session's queue (the parent-question gate); default: always open. */
  gate?: DrainGate;
  /** Re-sends of a prompt whose Prompt call failed ambiguously. */
  retry: BackoffPolicy;
  logger: Logger;
  random?: () => number;
  /** Observes each prompt's wait from queued to dispatched. */
  metrics?: Pick<BackendMetrics, 'promptDispatched'>;
  /**
   * A session drains on the replica holding "drain:<id>"; a kick that finds another replica draining it
   * kicks again after the renew interval (that drain may have read the queue before the prompt this kick
   * is for was committed). One process always holds it.
   */
  replicas: Pick<Replicas, 'once' | 'timing'>;
}

/** Thrown inside the claim transaction to roll it back when a compare-and-set lost. */
class ClaimLost extends Error {}

function asAppError(error: unknown): AppError {
  return isAppError(error) ? error : new AppError('unavailable', `agentctl failed: ${String(error)}`);
}

/**
 * Drains a session's prompt queue, one turn at a time. A kick claims the oldest queued prompt of an
 * idle session in one transaction (prompt queued -> dispatched, session waiting_for_input -> running,
 * both by compare-and-set) and only then calls agentctl's Prompt with the prompt's id. agentctl
 * rejecting the prompt itself (INVALID_ARGUMENT: it would every time) fails it with the reason and moves
 * on to the next; refusing it because of the session's state (nothing delivered) puts it back in the
 * queue; an ambiguous failure re-sends the SAME id with backoff, which agentctl answers as a duplicate
 * if it had it: never delivered twice. Kicks of a session run on its lane, so concurrent kicks in this
 * process claim once.
 */
export class PromptDrainer implements PromptKicker {
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private readonly rekicks = new Map<string, NodeJS.Timeout>();
  /** Refusals in a row per prompt whose agent looked ready (bounds the re-kicks after them). */
  private readonly refusals = new Map<string, number>();
  private readonly gate: DrainGate;
  private stopped = false;

  constructor(private readonly deps: PromptDrainerDeps) {
    this.gate = deps.gate ?? OPEN_GATE;
  }

  kick(sessionId: string): Promise<void> {
    return this.deps.lanes
      .run(sessionId, () => this.drain(sessionId))
      .catch((err: unknown) => this.deps.logger.error({ err, sessionId }, 'prompt drain failed'));
  }

  /** Sends a prompt that is already dispatched again, with its id (boot reconcile; on the caller's lane). */
  async redeliver(session: AgentSession, prompt: QueuedPrompt): Promise<void> {
    await this.deliver(session, prompt, 0);
  }

  /** Cancels pending re-sends; later kicks do nothing. */
  stop(): void {
    this.stopped = true;
    for (const timer of [...this.retries.values(), ...this.rekicks.values()]) clearTimeout(timer);
    this.retries.clear();
    this.rekicks.clear();
    this.refusals.clear();
  }

  private now(): string {
    return this.deps.clock().toISOString();
  }

  private async drain(sessionId: string): Promise<void> {
    if (this.stopped) return;
    const { replicas } = this.deps;
    const outcome = await replicas.once(`drain:${sessionId}`, () => this.drainNow(sessionId));
    if (outcome.ran || this.stopped || this.rekicks.has(sessionId)) return;
    const timer = setTimeout(() => {
      this.rekicks.delete(sessionId);
      void this.kick(sessionId);
    }, replicas.timing.renewMs);
    timer.unref();
    this.rekicks.set(sessionId, timer);
  }

  private async drainNow(sessionId: string): Promise<void> {
    const claimed = await this.claim(sessionId);
    if (claimed === undefined) return;
    const { prompt } = claimed;
    await this.recordClaimed(prompt);
    this.deps.metrics?.promptDispatched(prompt.createdAt, prompt.dispatchedAt ?? prompt.createdAt);
    await this.deliver(claimed.session, claimed.prompt, 0);
  }

  /**
   * queue.changed for a claim, right after the claim committed rather than inside it: the claim
   * transaction stays as short as it was (it races other backends' claims on the same database). The
   * depth is a count read now, so it is as true as one read inside; a failure here is logged, never
   * holds the prompt back.
   */
  private async recordClaimed(prompt: QueuedPrompt): Promise<void> {
    const at = prompt.dispatchedAt ?? this.now();
    await this.deps.uow.read.promptQueue
      .recordQueueChanged(prompt.id, prompt.sessionId, at)
      .catch((err: unknown) => this.deps.logger.warn({ err, promptId: prompt.id }, 'queue.changed not recorded'));
  }

  /** The prompt claimed, and the session row it was claimed on (its agentctl is where it goes). */
  private async claim(sessionId: string): Promise<{ session: AgentSession; prompt: QueuedPrompt } | undefined> {
    const now = this.now();
    try {
      return await this.deps.uow.transaction(async (stores) => {
        const session = await stores.sessions.findById(sessionId);
        if (session === undefined) return undefined;
        if (this.deps.agentctls.servedElsewhere(session) !== undefined) {
          this.deps.agentctls.forward(session); // only the replica whose local agentctl holds it can send
          return undefined;
        }
        const hasAgent = session.launchConfig.agent !== null;
        const inFlight = (await stores.promptQueue.findDispatched(sessionId)) !== undefined;
        const idle = session.state === 'waiting_for_input' && hasAgent && !inFlight;
        const gateReason = idle ? await this.gate.heldBecause(stores, session) : null;
        // Read even behind a closed gate: a parent's answer (first in line) passes it.
        const newest = idle && (await stores.sessions.newestLiveId(session.taskId)) === sessionId;
        const next = idle ? await stores.promptQueue.nextQueued(session, newest) : undefined;
        const decision = decideDrain({ session: { state: session.state, hasAgent }, inFlight, gateReason, next });
        if (decision.kind === 'hold') {
          this.deps.logger.debug({ sessionId, reason: decision.reason }, 'queue held');
          return undefined;
        }
        if (!(await stores.promptQueue.claim(decision.prompt.id, sessionId, now))) throw new ClaimLost();
        if ((await stores.sessions.advance(session, { kind: 'turn_started' }, now)) === null) throw new ClaimLost();
        const prompt = { ...decision.prompt, sessionId, status: 'dispatched' as const, dispatchedAt: now };
        return { session, prompt };
      });
    } catch (error) {
      if (error instanceof ClaimLost) return undefined; // another writer moved first; nothing changed
      throw error;
    }
  }

  /** Runs on the session's lane, so `session` (read on it) still says where the session runs. */
  private async deliver(session: AgentSession, prompt: QueuedPrompt, attempt: number): Promise<void> {
    const sessionId = session.id;
    const log = this.deps.logger.child({ sessionId, promptId: prompt.id });
    try {
      const accepted = await this.deps.agentctls.forSession(session).prompt(sessionId, prompt.id, prompt.prompt);
      this.refusals.delete(prompt.id);
      log.info({ duplicate: accepted.duplicate, turn: accepted.turn.status, attempt }, 'prompt delivered');
      if (accepted.duplicate && accepted.turn.status !== 'running') {
        // agentctl had it and the turn is over already (its turn_ended may have been missed).
        const turn = accepted.turn;
        const idle = await this.deps.uow.transaction((stores) => applyTurnEnded(stores, sessionId, turn, this.now()));
        if (idle) void this.kick(sessionId);
      }
    } catch (error) {
      const failure = asAppError(error);
      const kind = promptFailureKind(failure.code);
      if (kind === 'rejected') await this.rejected(session, prompt, failure);
      else if (kind === 'refused') await this.refused(session, prompt, failure);
      else this.scheduleRetry(sessionId, prompt, attempt, failure);
    }
  }

  /**
   * agentctl refused the prompt itself and would every time: it ends failed with the reason (shown by
   * REST), the session idles and the next prompt drains. Waiting again would wedge the queue behind it.
   */
  private async rejected(session: AgentSession, prompt: QueuedPrompt, failure: AppError): Promise<void> {
    const sessionId = session.id;
    const now = this.now();
    const error = promptRejectedError(failure.message);
    const idle = await this.deps.uow.transaction(async (stores) => {
      await stores.promptQueue.finish(prompt.id, sessionId, { status: 'failed', error }, now);
      const current = await stores.sessions.findById(sessionId);
      if (current === undefined) return false;
      return (await stores.sessions.advance(current, { kind: 'turn_finished' }, now)) === 'waiting_for_input';
    });
    this.refusals.delete(prompt.id);
    this.deps.logger.warn(
      { sessionId, promptId: prompt.id, code: failure.code, reason: failure.message },
      'agentctl rejected the prompt; it failed and the queue moves on',
    );
    if (idle) void this.kick(sessionId);
  }

  /** agentctl delivered nothing: the prompt waits again, the session becomes what agentctl reports. */
  private async refused(session: AgentSession, prompt: QueuedPrompt, failure: AppError): Promise<void> {
    const sessionId = session.id;
    await this.deps.uow.read.promptQueue.requeue(prompt.id, sessionId);
    const verdict = await this.probe(session);
    const now = this.now();
    await this.deps.uow.transaction(async (stores) => {
      if (verdict?.kind === 'lost' || verdict?.kind === 'exited') {
        const gone = { kind: verdict.kind, reason: verdict.reason, cleanExit: false };
        await applyAgentGone(stores, sessionId, { ...gone, promptError: agentExitedError(verdict.reason) }, now);
      } else if (verdict?.kind !== 'prompting') {
        // Another turn that is running keeps the session running until its turn_ended.
        const session = await stores.sessions.findById(sessionId);
        if (session !== undefined) await stores.sessions.advance(session, { kind: 'turn_finished' }, now);
      }
    });
    this.deps.logger.warn(
      { sessionId, promptId: prompt.id, code: failure.code, reason: failure.message, agent: verdict?.kind },
      'agentctl refused the prompt; it waits in the queue',
    );
    // A starting agent (agent_started), another turn (turn_ended) or a resume kicks again. An agent that
    // looked ready has no such event coming: kick again after a backoff, a bounded number of times.
    if (verdict === undefined || verdict.kind === 'ready') this.scheduleKick(sessionId, prompt.id);
  }

  private scheduleKick(sessionId: string, promptId: string): void {
    const attempt = this.refusals.get(promptId) ?? 0;
    if (this.stopped || !canRetry(attempt, this.deps.retry)) {
      this.refusals.delete(promptId);
      return; // it waits for the next enqueue, turn end, agent start or resume
    }
    this.refusals.set(promptId, attempt + 1);
    clearTimeout(this.retries.get(promptId));
    const timer = setTimeout(
      () => {
        this.retries.delete(promptId);
        void this.kick(sessionId);
      },
      retryDelayMs(attempt, this.deps.retry, this.deps.random),
    );
    timer.unref();
    this.retries.set(promptId, timer);
  }

  /** What agentctl reports about the session; undefined when it could not be asked. */
  private async probe(session: AgentSession): Promise<AgentVerdict | undefined> {
    let held: RuntimeSessionState | undefined;
    try {
      held = await this.deps.agentctls.forSession(session).getSession(session.id);
    } catch (error) {
      if (!isAppError(error) || error.code !== 'not_found') return undefined;
    }
    return judgeAgent(held, session.launchConfig.agent !== null);
  }

  private scheduleRetry(sessionId: string, prompt: QueuedPrompt, attempt: number, failure: AppError): void {
    const log = this.deps.logger.child({ sessionId, promptId: prompt.id, code: failure.code });
    if (this.stopped) return;
    if (!canRetry(attempt, this.deps.retry)) {
      // It stays dispatched: the next boot reconcile asks agentctl about it, a resume fails it.
      log.warn({ attempts: attempt, reason: failure.message }, 'giving up re-sending the prompt for now');
      return;
    }
    const delayMs = retryDelayMs(attempt, this.deps.retry, this.deps.random);
    clearTimeout(this.retries.get(prompt.id)); // at most one re-send pending per prompt
    const timer = setTimeout(() => {
      this.retries.delete(prompt.id);
      void this.deps.lanes
        .run(sessionId, () => this.resend(sessionId, prompt.id, attempt + 1))
        .catch((err: unknown) => log.error({ err }, 'prompt re-send failed'));
    }, delayMs);
    timer.unref();
    this.retries.set(prompt.id, timer);
    log.warn({ attempt, delayMs, reason: failure.message }, 'Prompt failed ambiguously; re-sending the same id');
  }

  private async resend(sessionId: string, promptId: string, attempt: number): Promise<void> {
    if (this.stopped) return;
    const prompt = await this.deps.uow.read.promptQueue.findById(promptId);
    // A turn_ended, a stop or a resume settled it meanwhile.
    if (prompt?.status !== 'dispatched' || prompt.sessionId !== sessionId) return;
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session !== undefined) await this.deliver(session, prompt, attempt);
  }
}
