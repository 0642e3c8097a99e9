import { z } from 'zod';
import { type LaunchConfig, type Surface, SurfaceSchema } from '@kandev/protocol';

/** A backend session row's lifecycle (not agentctl's runtime view of it). */
export const AGENT_SESSION_STATES = ['starting', 'running', 'failed', 'stopped'] as const;
export type AgentSessionState = (typeof AGENT_SESSION_STATES)[number];
export const AgentSessionStateSchema = z.enum(AGENT_SESSION_STATES);

export interface AgentSession {
  id: string;
  taskId: string;
  state: AgentSessionState;
  /** Which executor backend runs its agentctl, e.g. 'local'. */
  executor: string;
  agentctlAddress: string | null;
  revision: number;
  /** As pushed to agentctl, with the MCP token blanked. */
  launchConfig: LaunchConfig;
  mcpTokenHash: string;
  surface: Surface;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export const LaunchSessionBodySchema = z
  .object({
    surface: SurfaceSchema.default('kanban_task'),
    owns_task_title: z.boolean().default(false),
  })
  .strict();
export type LaunchSessionBody = z.infer<typeof LaunchSessionBodySchema>;
