// Pure: an agent profile (what runs a task's agent), its REST schemas and how it is shown.
import { z } from 'zod';
import { type PermissionPolicy, PermissionPolicySchema } from '@kandev/protocol';

export interface AgentProfile {
  id: string;
  name: string;
  command: string;
  args: string[];
  /**
   * Environment the agent starts with. Values may be secrets: never logged, never shown; read back from
   * the store they are sealed (only the launch path opens them).
   */
  env: Record<string, string>;
  /** False when the agent cannot receive the MCP tool set (autopilot tasks need it). */
  supportsMcp: boolean;
  /** How agentctl answers the agent's permission requests (docs/agents.md#permission-policy). */
  permissionPolicy: PermissionPolicy;
  createdAt: string;
}

/** Environment variable names: upper case letters, digits and underscores, not starting with a digit. */
export const ENV_KEY_PATTERN = /^[A-Z_][A-Z0-9_]*$/;
export const MAX_ENV_ENTRIES = 100;

const EnvSchema = z
  .record(z.string().max(200).regex(ENV_KEY_PATTERN, 'env keys must match ^[A-Z_][A-Z0-9_]*$'), z.string().max(32_768))
  .refine((env) => Object.keys(env).length <= MAX_ENV_ENTRIES, `env holds at most ${MAX_ENV_ENTRIES} entries`);

export const CreateAgentProfileBodySchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(/^[^\r\n]*$/, 'name must be a single line'),
    command: z.string().trim().min(1).max(4096),
    args: z.array(z.string().max(32_768)).max(256).optional(),
    env: EnvSchema.optional(),
    supports_mcp: z.boolean(),
    permission_policy: PermissionPolicySchema.optional().describe(
      "How the agent's ACP permission requests are answered: ask (the default) turns each into an operator " +
        "question (an autopilot child's into a question to its parent; a root's are rejected), allow_all allows " +
        'each once, deny_all rejects each.',
    ),
  })
  .strict();
export type CreateAgentProfileBody = z.infer<typeof CreateAgentProfileBodySchema>;

/**
 * PATCH /api/agent-profiles/:id: any field of the profile; applies from the next session start. `env` is
 * a merge patch, since values are write-only (never shown, so never sent back): a key with a string sets
 * that value, a key with null removes it, keys not named keep their values.
 */
export const UpdateAgentProfileBodySchema = z
  .object({
    name: CreateAgentProfileBodySchema.shape.name.optional(),
    command: CreateAgentProfileBodySchema.shape.command.optional(),
    args: CreateAgentProfileBodySchema.shape.args,
    env: z
      .record(
        z.string().max(200).regex(ENV_KEY_PATTERN, 'env keys must match ^[A-Z_][A-Z0-9_]*$'),
        z.string().max(32_768).nullable(),
      )
      .optional()
      .describe('a merge patch: a string sets the variable, null removes it, unnamed variables are kept'),
    supports_mcp: z.boolean().optional(),
    permission_policy: PermissionPolicySchema.optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateAgentProfileBody = z.infer<typeof UpdateAgentProfileBodySchema>;

/** The env variable names a merge patch leaves (the store applies the values, sealing new ones). */
export function patchedEnvKeys(current: readonly string[], patch: Record<string, string | null>): string[] {
  const keys = new Set(current);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) keys.delete(key);
    else keys.add(key);
  }
  return [...keys];
}

/** What the configuration tools show an agent: arguments and environment are left out. */
export interface AgentProfileView {
  id: string;
  name: string;
  command: string;
  supports_mcp: boolean;
}

export function toAgentProfileView(profile: AgentProfile): AgentProfileView {
  return { id: profile.id, name: profile.name, command: profile.command, supports_mcp: profile.supportsMcp };
}

/** What the operator's REST API shows: arguments, and the names (never the values) of the environment. */
export const AgentProfileRestViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    command: z.string(),
    supports_mcp: z.boolean(),
    permission_policy: PermissionPolicySchema,
    args: z.array(z.string()),
    env_keys: z.array(z.string()),
    created_at: z.string(),
  })
  .strict()
  .meta({ id: 'AgentProfile' });
export type AgentProfileRestView = z.infer<typeof AgentProfileRestViewSchema>;

export function toAgentProfileRestView(profile: AgentProfile): AgentProfileRestView {
  return {
    ...toAgentProfileView(profile),
    permission_policy: profile.permissionPolicy,
    args: profile.args,
    env_keys: Object.keys(profile.env).sort(),
    created_at: profile.createdAt,
  };
}
