import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * What the local executor records about the agentctl it started, so a backend restarted after a crash
 * can adopt the agentctl that outlived it instead of colliding with it on its ports. It holds the
 * control token, so it is written with mode 0600 next to the database.
 */
export const AgentctlStateSchema = z
  .object({
    pid: z.number().int().positive(),
    grpcAddress: z.string().min(1),
    mcpBaseUrl: z.url(),
    controlToken: z.string().min(32),
    startedAt: z.string().min(1),
  })
  .strict();
export type AgentctlState = z.infer<typeof AgentctlStateSchema>;

/** The recorded state, or undefined when there is none or it cannot be trusted (unreadable, malformed). */
export function readAgentctlState(path: string): AgentctlState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = AgentctlStateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeAgentctlState(path: string, state: AgentctlState): void {
  const temp = `${path}.tmp`;
  writeFileSync(temp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

export function removeAgentctlState(path: string): void {
  rmSync(path, { force: true });
}
