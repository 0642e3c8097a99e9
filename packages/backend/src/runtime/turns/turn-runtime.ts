import type { Replicas } from '../../platform/cluster/replicas';
import type { Agentctls } from '../agentctl/agentctls';
import type { Logger } from '../../platform/logger/logger';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { DrainGate } from '../prompt-queue/drain-gate';
import { PromptDrainer } from './prompt-drainer';
import { createParentQuestionGate } from '../parent-questions/parent-question-gate';
import type { BackoffPolicy } from '../../platform/retry/retry-backoff';
import { SessionLanes } from '../sessions/session-lanes';
import type { RefreshScheduler } from '../provider-refresh/provider-reconciler';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { BootReconciler } from './boot-reconcile';
import { SessionEventHandler } from './session-event-handler';
import { StartSweeper } from './start-sweeper';
import { TurnSweeper } from './turn-sweeper';

export interface TurnRuntimeDeps {
  uow: UnitOfWork;
  clock: () => Date;
  agentctls: Agentctls;
  refreshes: RefreshScheduler;
  /** Re-sends of a prompt whose Prompt call failed ambiguously. */
  promptRetry: BackoffPolicy;
  /** Holds a session's queue; default: the parent-question gate (a child waiting for its parent). */
  gate?: DrainGate;
  logger: Logger;
  random?: () => number;
  metrics?: Pick<BackendMetrics, 'promptDispatched' | 'agentExited' | 'turnEnded'>;
  /**
   * Drains are claimed per session (PromptDrainerDeps.replicas); turns a dead replica left waiting are
   * swept every renew interval once they waited a lease's TTL (TurnSweeper; never in one process).
   */
  replicas: Replicas;
}

/**
 * The turn model's moving parts over one database and the agentctls: the per-session lanes, the prompt
 * drainer, the session event handler (fed by the Attach client), the boot reconcile and, with several
 * replicas, the sweeps of what a dead one left (waiting turns, unstarted sessions).
 */
export function createTurnRuntime(deps: TurnRuntimeDeps) {
  const { uow, clock, agentctls, logger } = deps;
  const lanes = new SessionLanes();
  const drainer = new PromptDrainer({
    uow,
    clock,
    agentctls,
    lanes,
    gate: deps.gate ?? createParentQuestionGate(clock),
    retry: deps.promptRetry,
    logger: logger.child({ component: 'drainer' }),
    random: deps.random,
    metrics: deps.metrics,
    replicas: deps.replicas,
  });
  const events = new SessionEventHandler({
    uow,
    clock,
    lanes,
    prompts: drainer,
    refreshes: deps.refreshes,
    logger: logger.child({ component: 'session-events' }),
    metrics: deps.metrics,
  });
  const boot = new BootReconciler({
    uow,
    clock,
    agentctls,
    lanes,
    drainer,
    logger: logger.child({ component: 'boot-reconcile' }),
    replicas: deps.replicas,
  });
  const { replicas } = deps;
  const sweeper = new TurnSweeper({
    ...{ uow, clock, agentctls, reconciler: boot, replicas },
    staleMs: replicas.timing.ttlMs,
    logger: logger.child({ component: 'turn-sweeper' }),
  });
  const startSweeper = new StartSweeper({
    ...{ uow, clock, agentctls, reconciler: boot, replicas },
    staleMs: replicas.timing.ttlMs,
    logger: logger.child({ component: 'start-sweeper' }),
  });
  return {
    lanes,
    drainer,
    events,
    boot,
    /** The sweep of turns a dead replica left waiting (it sweeps nothing in one process). */
    sweeper,
    /** The sweep of sessions a dead replica left created or starting (nothing in one process). */
    startSweeper,
    /** No more re-sends or sweeps; waits for the work already on the lanes. */
    async stop(): Promise<void> {
      await Promise.all([sweeper.stop(), startSweeper.stop()]);
      drainer.stop();
      await lanes.idle();
    },
  };
}

export type TurnRuntime = ReturnType<typeof createTurnRuntime>;
