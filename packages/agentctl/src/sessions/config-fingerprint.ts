import { type LaunchConfig, redactLaunchConfig } from '@kandev/protocol';

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

/**
 * The content identity of a launch config: everything as received except the MCP token, which is
 * represented by its hash (agentctl never keeps the token itself).
 */
export function configFingerprint(config: LaunchConfig, mcpTokenHash: string): string {
  return canonicalJson({ config: redactLaunchConfig(config), mcpTokenHash });
}
