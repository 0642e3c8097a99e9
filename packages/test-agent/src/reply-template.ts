// Placeholders in `reply` text, so a script can echo which prompt it is answering (tests prove delivery
// order with them). Pure: no I/O.

/** What a reply can refer to: the prompt's text and its 0-based ordinal in the ACP session. */
export interface PromptContext {
  prompt: string;
  ordinal: number;
}

export const PLACEHOLDERS = ['prompt', 'ordinal'] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

const PLACEHOLDER_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

function isPlaceholder(name: string): name is Placeholder {
  return (PLACEHOLDERS as readonly string[]).includes(name);
}

/** Names inside `{{...}}` that are not placeholders; a script with any is rejected at load time. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER_PATTERN)].map((m) => m[1] ?? '').filter((name) => !isPlaceholder(name));
}

/**
 * Replaces each placeholder in one pass, so a prompt that itself contains `{{ordinal}}` is echoed
 * verbatim rather than expanded again.
 */
export function renderReply(text: string, context: PromptContext): string {
  return text.replace(PLACEHOLDER_PATTERN, (whole: string, name: string) => {
    if (name === 'prompt') return context.prompt;
    if (name === 'ordinal') return String(context.ordinal);
    return whole;
  });
}
