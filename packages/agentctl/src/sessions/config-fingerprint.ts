import { type LaunchConfig, redactLaunchConfig, sha256Hex } from '@kandev/protocol';

/** JSON with object keys sorted at every level, so equal content always gives equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A digest of the agent's environment values, which agentctl keeps only redacted (they may be secrets). */
export function agentEnvDigest(config: LaunchConfig): string {
  return sha256Hex(canonicalJson(config.agent?.env ?? {}));
}

/**
 * The content identity of a launch config: everything as received, with the MCP token and the agent's
 * environment values represented by their digests (agentctl keeps neither), so a config that differs
 * only in a secret is still a different config.
 */
export function configFingerprint(config: LaunchConfig, digests: { mcpTokenHash: string; envDigest: string }): string {
  return canonicalJson({ config: redactLaunchConfig(config), ...digests });
}
