import { AppError } from '@kandev/protocol';
import type { AgentctlEndpoint, ExecutorKind, SessionPlacement, WorkspaceMount } from './executor';

/**
 * Where sessions' agentctls are: which executor a launch uses, the agentctl a session was started on,
 * and every agentctl up now. The executor registry is the one implementation; Agentctls reaches them.
 */
export interface AgentctlDirectory {
  readonly defaultExecutor: string;
  /** The executor (or profile) names a launch may ask for. */
  names(): string[];
  /** The agentctl for a session (re)starting on executor `name`. */
  acquire(name: string, sessionId: string, workspace?: WorkspaceMount): Promise<AgentctlEndpoint>;
  /** The shared agentctl a new session on executor `name` would start on, when known now (ExecutorBackend). */
  placementNow(name: string): AgentctlEndpoint | undefined;
  /** The kind of executor `name` (unknown name: invalid_argument). */
  kindOf(name: string): ExecutorKind;
  /** A remote executor's view of the workspaces dir (shared storage), when configured. */
  sharedWorkspacesDirOf(name: string): string | undefined;
  /** The live agentctl the session was started on (matched by its recorded address), if any. */
  endpointFor(session: SessionPlacement): AgentctlEndpoint | undefined;
  /** Every agentctl up now. */
  endpoints(): AgentctlEndpoint[];
  /** The executor (name and kind) whose agentctl is up at this address now, if any. */
  ownerOf(grpcAddress: string): { name: string; kind: string } | undefined;
  /** The session ended: its executor may free what it held for it (docker: its container). */
  release(session: SessionPlacement): Promise<void>;
}

export function unknownExecutor(name: string, known: readonly string[]): AppError {
  return new AppError('invalid_argument', `unknown executor '${name}'; configured: ${known.join(', ')}`);
}
