import { AppError } from '@kandev/protocol';
import type { AgentctlEndpoint, Executor, SessionPlacement } from './executor';

/**
 * Where sessions' agentctls are: which executor a launch uses, the agentctl a session was started on,
 * and every agentctl up now. The executor registry is the real one; a single Executor (tests, the old
 * one-agentctl wiring) is wrapped by singleAgentctl().
 */
export interface AgentctlDirectory {
  readonly defaultExecutor: string;
  /** The executor (or profile) names a launch may ask for. */
  names(): string[];
  /** The agentctl for a session (re)starting on executor `name`. */
  acquire(name: string, sessionId: string): Promise<AgentctlEndpoint>;
  /** The live agentctl the session was started on (matched by its recorded address), if any. */
  endpointFor(session: SessionPlacement): AgentctlEndpoint | undefined;
  /** Every agentctl up now. */
  endpoints(): AgentctlEndpoint[];
  /** The session ended: its executor may free what it held for it (docker: its container). */
  release(session: SessionPlacement): Promise<void>;
}

export function unknownExecutor(name: string, known: readonly string[]): AppError {
  return new AppError('invalid_argument', `unknown executor '${name}'; configured: ${known.join(', ')}`);
}

/** A directory over one executor that runs one agentctl for every session. */
export function singleAgentctl(executor: Executor): AgentctlDirectory {
  return {
    defaultExecutor: executor.name,
    names: () => [executor.name],
    acquire: (name) => {
      if (name !== executor.name) return Promise.reject(unknownExecutor(name, [executor.name]));
      return executor.ensureAgentctl();
    },
    endpointFor: (session) => {
      const current = executor.current();
      return current !== undefined && current.grpcAddress === session.agentctlAddress ? current : undefined;
    },
    endpoints: () => {
      const current = executor.current();
      return current === undefined ? [] : [current];
    },
    release: () => Promise.resolve(),
  };
}

/** The directory a service was given, or its one executor wrapped as one. */
export function directoryOf(deps: { executor: Executor; agentctls?: AgentctlDirectory }): AgentctlDirectory {
  return deps.agentctls ?? singleAgentctl(deps.executor);
}
