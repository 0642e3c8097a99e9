import { canonicalJson, type LaunchConfig, redactLaunchConfig, sha256Hex } from '@kandev/protocol';

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
  const { mcpTokenHash, envDigest } = digests;
  return canonicalJson({ config: redactLaunchConfig(config), mcpTokenHash, envDigest });
}
