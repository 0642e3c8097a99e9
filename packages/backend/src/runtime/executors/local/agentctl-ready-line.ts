import { z } from 'zod';

const port = z.number().int().min(1).max(65535);

/** agentctl's one stdout line: `{"event":"ready","grpcPort":N,"mcpPort":N,"pid":N}`. */
export const AgentctlReadySchema = z.object({
  event: z.literal('ready'),
  grpcPort: port,
  mcpPort: port,
  pid: z.number().int().positive(),
});
export type AgentctlReady = z.infer<typeof AgentctlReadySchema>;

/** The ready message in one stdout line, or undefined for any other line (child output is a boundary). */
export function parseAgentctlReadyLine(line: string): AgentctlReady | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = AgentctlReadySchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
