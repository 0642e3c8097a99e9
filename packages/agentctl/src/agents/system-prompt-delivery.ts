import type { SystemPromptDelivery } from '@kandev/protocol';
import type { AgentCapabilities } from './acp-connection';

// Pure: how a session's system prompt reaches its agent, beside the agent's own instructions.

/**
 * spec_append: the agent advertises the ACP `systemPrompt` (append mode is what every such agent
 * supports). first_prompt: otherwise the text leads the ACP session's first prompt. kept: a loaded
 * session has its prompt from when it was created (agents keep it with the session and ignore a new
 * one). none: there is no prompt.
 */
export function systemPromptDelivery(
  capabilities: Pick<AgentCapabilities, 'systemPrompt'>,
  systemPrompt: string,
  loaded: boolean,
): SystemPromptDelivery {
  if (systemPrompt.trim().length === 0) return 'none';
  if (loaded) return 'kept';
  return capabilities.systemPrompt ? 'spec_append' : 'first_prompt';
}

/** The first prompt of a session whose agent cannot take a system prompt: the instructions lead. */
export function withPreamble(systemPrompt: string, prompt: string): string {
  return `<kandev-instructions>\n${systemPrompt.trim()}\n</kandev-instructions>\n\n${prompt}`;
}
