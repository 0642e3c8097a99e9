import type { Instruments } from '@kandev/metrics';

const WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];
const TURN_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200];
const LAUNCH_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const TOOL_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 120, 600];

/**
 * Why an agent process ended, as a bounded label: `stopped` (kandev stopped it: stop, resume,
 * shutdown), `exited_ok` (exit code 0 on its own), `exited_error` (a non-zero exit code), `signal`
 * (killed by a signal it was not sent by kandev), `start_failed` (no exit code and no signal: it
 * never ran). Everything but `stopped` is unexpected.
 */
export const AGENT_EXIT_REASONS = ['stopped', 'exited_ok', 'exited_error', 'signal', 'start_failed'] as const;
export type AgentExitReason = (typeof AGENT_EXIT_REASONS)[number];

export function agentExitReason(exit: { exitCode: number | null; signal: string | null; expected: boolean }) {
  if (exit.expected) return 'stopped';
  if (exit.exitCode === 0) return 'exited_ok';
  if (exit.exitCode !== null) return 'exited_error';
  return exit.signal !== null ? 'signal' : 'start_failed';
}

/** Turn outcomes as agentctl reports a turn's end. */
const TURN_OUTCOMES = ['completed', 'failed'] as const;

function seconds(from: string, to: string): number {
  return Math.max(0, Date.parse(to) - Date.parse(from)) / 1000;
}

/** Sessions, turns, prompts, questions and the agents' tool calls as the backend handles them. */
export function runtimeMetrics(instruments: Instruments) {
  const promptWait = instruments.histogram({
    name: 'kandev_backend_prompt_wait_seconds',
    help: 'Time from a prompt being queued to its dispatch to the agent',
    buckets: WAIT_BUCKETS,
  });
  const turnSeconds = instruments.histogram({
    name: 'kandev_backend_turn_duration_seconds',
    help: "A prompt turn's duration as agentctl reports its end, by outcome (completed, failed)",
    labelNames: ['outcome'] as const,
    buckets: TURN_BUCKETS,
    known: { outcome: TURN_OUTCOMES },
  });
  const launchSeconds = instruments.histogram({
    name: 'kandev_backend_session_start_duration_seconds',
    help: 'A session launch or resume handed to agentctl (its agentctl found or started, CreateSession), by outcome (ok, or the error code)',
    labelNames: ['outcome'] as const,
    buckets: LAUNCH_BUCKETS,
    known: { outcome: ['ok'] },
  });
  const exits = instruments.counter({
    name: 'kandev_backend_agent_exits_total',
    help: 'Agent processes that ended, by reason (stopped; unexpected: exited_ok, exited_error, signal, start_failed)',
    labelNames: ['reason'] as const,
    known: { reason: AGENT_EXIT_REASONS },
  });
  const toolCalls = instruments.counter({
    name: 'kandev_backend_tool_calls_total',
    help: 'Tool calls from agents by tool and outcome (ok, or the refusal or error code)',
    labelNames: ['tool', 'outcome'] as const,
  });
  const toolSeconds = instruments.histogram({
    name: 'kandev_backend_tool_call_duration_seconds',
    help: 'Time the backend took to answer a tool call (admission checks and handler), by tool',
    labelNames: ['tool'] as const,
    buckets: TOOL_BUCKETS,
  });
  const answerSeconds = instruments.histogram({
    name: 'kandev_backend_question_answer_seconds',
    help: "Time from an operator question being asked to the operator's answer",
    buckets: WAIT_BUCKETS,
  });

  return {
    /** A prompt queued at `queuedAt` was dispatched at `dispatchedAt` (ISO timestamps). */
    promptDispatched(queuedAt: string, dispatchedAt: string): void {
      promptWait.observe(seconds(queuedAt, dispatchedAt));
    },
    /** A turn agentctl reported ended (ISO timestamps). */
    turnEnded(outcome: 'completed' | 'failed', startedAt: string, endedAt: string): void {
      turnSeconds.observe({ outcome }, seconds(startedAt, endedAt));
    },
    /** Runs a session start (launch or resume), timed by its outcome. */
    async sessionStart<T>(run: () => Promise<T>, outcomeOfError: (err: unknown) => string): Promise<T> {
      const end = launchSeconds.startTimer();
      try {
        const result = await run();
        end({ outcome: 'ok' });
        return result;
      } catch (err) {
        end({ outcome: outcomeOfError(err) });
        throw err;
      }
    },
    agentExited(exit: { exitCode: number | null; signal: string | null; expected: boolean }): void {
      exits.inc({ reason: agentExitReason(exit) });
    },
    /** One tool call answered (`tool`: a served name or a fixed placeholder, never an agent's string). */
    toolCall(tool: string, outcome: string, durationSeconds?: number): void {
      toolCalls.inc({ tool, outcome });
      if (durationSeconds !== undefined) toolSeconds.observe({ tool }, durationSeconds);
    },
    questionAnswered(askedAt: string, answeredAt: string): void {
      answerSeconds.observe(seconds(askedAt, answeredAt));
    },
  };
}
