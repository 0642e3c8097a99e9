// Placeholders in script text (replies, wait_for_file paths, call_tool argument strings), so a script can
// echo which prompt it is answering (tests prove delivery order with them) and reuse what an earlier
// `capture` step found (a question id known only at run time). Pure: no I/O.

/**
 * What a template can refer to: the prompt, its 0-based ordinal, the system prompt, captured variables,
 * and where the agent runs (its cwd and git branch: tests prove the agent works in its task workspace).
 */
export interface PromptContext {
  prompt: string;
  ordinal: number;
  /** The ACP systemPrompt of session/new, load or resume; '' when none was given. */
  systemPrompt?: string;
  /** The session's mode ({{mode}}). */
  mode?: string;
  /** Variables set by `capture` steps in this ACP session. */
  vars?: ReadonlyMap<string, string>;
  /** The agent process's working directory ({{cwd}}); '' when not given. */
  cwd?: string;
  /** The git branch checked out in that directory ({{git_branch}}), read only when a template asks. */
  gitBranch?: () => string;
}

export const PLACEHOLDERS = ['prompt', 'ordinal', 'system_prompt', 'mode', 'cwd', 'git_branch'] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

/** `{{var:<name>}}`: a variable name as `capture` accepts it. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const VAR_PREFIX = 'var:';

const PLACEHOLDER_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** A `{{var:<name>}}` that no capture step has set in this session (the turn fails with this message). */
export class UnknownVariableError extends Error {
  constructor(
    readonly variable: string,
    known: readonly string[],
  ) {
    super(
      `unknown variable {{var:${variable}}}: no capture step has set it in this session ` +
        `(set so far: ${known.length === 0 ? 'none' : known.join(', ')})`,
    );
    this.name = 'UnknownVariableError';
  }
}

function isPlaceholder(name: string): name is Placeholder {
  return (PLACEHOLDERS as readonly string[]).includes(name);
}

function variableOf(name: string): string | undefined {
  if (!name.startsWith(VAR_PREFIX)) return undefined;
  const variable = name.slice(VAR_PREFIX.length).trim();
  return VARIABLE_NAME.test(variable) ? variable : undefined;
}

/**
 * Names inside `{{...}}` that are neither placeholders nor well-formed `var:<name>` references; a script
 * with any is rejected at load time. Whether a variable is set can only be known when the turn runs.
 */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER_PATTERN)]
    .map((m) => m[1] ?? '')
    .filter((name) => !isPlaceholder(name) && variableOf(name) === undefined);
}

/** Every string inside a JSON-like value (object values and array items, at any depth). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

/**
 * Replaces each placeholder in one pass, so a prompt that itself contains `{{ordinal}}` (or a captured
 * value holding `{{...}}`) is used verbatim rather than expanded again. Throws UnknownVariableError for a
 * `{{var:<name>}}` that is not set; leaves any other unknown `{{...}}` as written (load time rejects those).
 */
export function renderReply(text: string, context: PromptContext): string {
  return text.replace(PLACEHOLDER_PATTERN, (whole: string, name: string) => {
    if (name === 'prompt') return context.prompt;
    if (name === 'ordinal') return String(context.ordinal);
    if (name === 'system_prompt') return context.systemPrompt ?? '';
    if (name === 'mode') return context.mode ?? '';
    if (name === 'cwd') return context.cwd ?? '';
    if (name === 'git_branch') return context.gitBranch?.() ?? '';
    const variable = variableOf(name);
    if (variable === undefined) return whole;
    const value = context.vars?.get(variable);
    if (value === undefined) throw new UnknownVariableError(variable, [...(context.vars?.keys() ?? [])].sort());
    return value;
  });
}

/** renderReply on every string value of a JSON-like value, at any depth; keys and non-strings are kept. */
export function renderDeep(value: unknown, context: PromptContext): unknown {
  if (typeof value === 'string') return renderReply(value, context);
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, context));
  if (typeof value === 'object' && value !== null) return renderArguments(value as Record<string, unknown>, context);
  return value;
}

/** Tool arguments with every string value (at any depth) rendered. */
export function renderArguments(
  args: Readonly<Record<string, unknown>>,
  context: PromptContext,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([key, item]) => [key, renderDeep(item, context)]));
}
