// How an agent process ended, in the words agentctl reports (AgentExited.reason, AgentState.exit_reason).

export interface AgentExit {
  /** null when the process ended by a signal or never started. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly reason: string;
}

/** "exited with code 3", "killed by SIGKILL". */
export function exitFromStatus(code: number | null, signal: string | null): AgentExit {
  if (signal !== null) return { exitCode: null, signal, reason: `killed by ${signal}` };
  return { exitCode: code, signal: null, reason: `exited with code ${code ?? 'unknown'}` };
}

/**
 * The command could not be spawned at all: "could not start: spawn foo ENOENT". Node reports a missing
 * working directory as the command's ENOENT too, so that case is named when the caller knows it.
 */
export function exitFromSpawnError(err: Error, missingCwd?: string): AgentExit {
  const where = missingCwd === undefined ? '' : ` (working directory ${missingCwd} does not exist)`;
  return { exitCode: null, signal: null, reason: `could not start: ${err.message}${where}` };
}

/** The error message of anything thrown, on one line and bounded (it ends up in events and logs). */
export function describeError(err: unknown, maxLength = 500): string {
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : JSON.stringify(err);
  const line = (text ?? String(err)).replace(/\s+/g, ' ').trim();
  return line.length > maxLength ? `${line.slice(0, maxLength)}…` : line;
}
