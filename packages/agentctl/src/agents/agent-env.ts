// The environment an agent process starts with: a small safe base from agentctl's own environment
// plus the agent profile's variables. Pure: config.ts picks the base, the launcher adds the profile.

/** The only variables of agentctl's environment an agent inherits (whichever are set). */
export const AGENT_BASE_ENV_KEYS = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TERM', 'SHELL', 'TMPDIR'] as const;

/**
 * agentctl's own settings, its control token among them, live under this prefix. No such variable ever
 * reaches an agent: not from agentctl's environment, and not from a profile either (a profile could
 * otherwise be used to point an agent at agentctl's token file or to impersonate agentctl's config).
 */
export const RESERVED_ENV_PREFIX = 'KANDEV_';

const isReserved = (name: string): boolean => name.toUpperCase().startsWith(RESERVED_ENV_PREFIX);

/** The safe base: the allow-listed variables that are set, nothing else. */
export function pickAgentBaseEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const key of AGENT_BASE_ENV_KEYS) {
    const value = env[key];
    if (value !== undefined) base[key] = value;
  }
  return base;
}

export interface AgentEnvironment {
  readonly env: Record<string, string>;
  /** Names (never values) of profile variables left out because they are reserved. */
  readonly dropped: string[];
}

/** Base plus profile (the profile wins on a clash), without any reserved variable. */
export function agentEnvironment(
  base: Readonly<Record<string, string>>,
  profile: Readonly<Record<string, string>>,
): AgentEnvironment {
  const env: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(base)) {
    if (!isReserved(name)) env[name] = value;
  }
  for (const [name, value] of Object.entries(profile)) {
    if (isReserved(name)) dropped.push(name);
    else env[name] = value;
  }
  return { env, dropped };
}
