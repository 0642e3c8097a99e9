import { z } from 'zod';
import { type LaunchConfig, type Provider, type Surface, SurfaceSchema } from '@kandev/protocol';

/**
 * A backend session row's lifecycle (not agentctl's runtime view of it). The allowed moves between
 * them are in session-lifecycle.ts; every write goes through it.
 */
export const AGENT_SESSION_STATES = [
  'created',
  'starting',
  'running',
  'waiting_for_input',
  'completed',
  'failed',
  'cancelled',
] as const;
export type AgentSessionState = (typeof AGENT_SESSION_STATES)[number];
export const AgentSessionStateSchema = z.enum(AGENT_SESSION_STATES);

export interface AgentSession {
  id: string;
  taskId: string;
  state: AgentSessionState;
  /** Which executor backend runs its agentctl, e.g. 'local'. */
  executor: string;
  agentctlAddress: string | null;
  /**
   * The backend replica whose own local agentctl holds the session (only that replica reaches it); null
   * when every replica reaches the agentctl, and always for a backend alone on its database.
   */
  agentctlReplica: string | null;
  /** The DESIRED revision: bumped whenever the derived config changes (launch 1, live updates, resume). */
  revision: number;
  /** The DESIRED config (derived from the database), with the MCP token blanked. */
  launchConfig: LaunchConfig;
  /** The last revision agentctl acknowledged (0: none yet). Behind `revision` until a refresh lands. */
  appliedRevision: number;
  /** The providers agentctl acknowledged with `appliedRevision` (null: none yet). */
  appliedProviders: Provider[] | null;
  /** Why the last live refresh did not land (null once one does). */
  refreshError: string | null;
  /** Failed refreshes since the last acknowledged one. */
  refreshAttempts: number;
  refreshedAt: string | null;
  mcpTokenHash: string;
  surface: Surface;
  lastError: string | null;
  /** The agent's ACP session id (from agent_started); resume asks agentctl to continue it. */
  acpSessionId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A live session as a provider refresh plans it: where it runs, its state, its desired revision and set. */
export type LiveRevision = Pick<
  AgentSession,
  'id' | 'state' | 'executor' | 'agentctlAddress' | 'agentctlReplica' | 'revision'
> & { providers: Provider[] };

export const LaunchSessionBodySchema = z
  .object({
    surface: SurfaceSchema.default('kanban_task'),
    owns_task_title: z.boolean().default(false),
    /** 'local' | 'docker' | 'remote' or a named executor profile; the backend's default when absent. */
    executor: z.string().trim().min(1).max(32).optional(),
  })
  .strict();
export type LaunchSessionBody = z.infer<typeof LaunchSessionBodySchema>;

/** Resume rebuilds everything from the database; the body carries nothing. */
export const ResumeSessionBodySchema = z.object({}).strict();

/** The agent is gone by itself ('exited') or agentctl does not hold it / runs none ('lost'). */
export interface AgentGone {
  kind: 'exited' | 'lost';
  /** Stored as the session's last_error. */
  reason: string;
  /** The error the prompt in flight fails with. */
  promptError: string;
  /** Exit code 0: outside a turn the session completed rather than failed. */
  cleanExit: boolean;
}
