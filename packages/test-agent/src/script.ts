// The script format (zod) and the pure rule that picks a turn for a prompt. No I/O here.
import { z } from 'zod';
import { PLACEHOLDERS, stringsIn, unknownPlaceholders, VARIABLE_NAME } from './reply-template';

export const SCRIPT_STOP_REASONS = ['end_turn', 'refusal', 'max_tokens'] as const;
export type ScriptStopReason = (typeof SCRIPT_STOP_REASONS)[number];

/** A bad script: the message names every problem (path: what is wrong). */
export class ScriptError extends Error {
  constructor(message: string, opts?: ErrorOptions) {
    super(message, opts);
    this.name = 'ScriptError';
  }
}

const STEP_KINDS = [
  'call_tool',
  'list_tools',
  'known_tools',
  'reply',
  'capture',
  'wait_for_cancel',
  'wait_for_file',
  'exit',
  'request_permission',
] as const;

/** ACP permission option kinds. */
export const PERMISSION_OPTION_KINDS = ['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const;

/** ACP tool kinds (the tool call a permission request is about). */
export const TOOL_KINDS = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
] as const;

/** What `request_permission` offers when the script names no options. */
export const DEFAULT_PERMISSION_OPTIONS = [
  { option_id: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { option_id: 'allow-always', name: 'Allow always', kind: 'allow_always' },
  { option_id: 'reject-once', name: 'Reject', kind: 'reject_once' },
] as const;

/** Where a `capture` step looks: the prompt's text, or the result text of the session's latest call_tool. */
export const CAPTURE_SOURCES = ['prompt', 'last_tool_result'] as const;
export type CaptureSource = (typeof CAPTURE_SOURCES)[number];

const KNOWN_PLACEHOLDERS = [...PLACEHOLDERS.map((p) => `{{${p}}}`), '{{var:<name>}}'].join(', ');

function checkPlaceholders(text: string, ctx: z.RefinementCtx): void {
  for (const name of unknownPlaceholders(text)) {
    ctx.addIssue({ code: 'custom', message: `unknown placeholder {{${name}}} (known: ${KNOWN_PLACEHOLDERS})` });
  }
}

/** Text that may hold placeholders (see reply-template.ts); any other {{name}} is an error at load time. */
const TemplateSchema = z.string().superRefine(checkPlaceholders);

/** Tool arguments: every string value, at any depth, may hold placeholders. */
const ArgumentsSchema = z
  .record(z.string(), z.unknown())
  .superRefine((args, ctx) => {
    for (const text of stringsIn(args)) checkPlaceholders(text, ctx);
  })
  .default({});

// Flags that keep a capture a pure function of its text: g and y would make exec() stateful.
const CAPTURE_FLAGS = /^[imsu]*$/;

const CaptureSchema = z
  .object({
    name: z.string().regex(VARIABLE_NAME, 'a variable name is a letter or _, then letters, digits, _ or -'),
    pattern: z.string().min(1),
    flags: z.string().regex(CAPTURE_FLAGS, 'capture flags may only be i, m, s and u').default(''),
    from: z.enum(CAPTURE_SOURCES).default('prompt'),
  })
  .strict()
  .superRefine((capture, ctx) => {
    const groups = captureGroupCount(capture.pattern, capture.flags);
    if (typeof groups === 'string') {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: `not a valid JS regular expression: ${groups}` });
    } else if (groups < 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['pattern'],
        message: 'needs a capturing group: group 1 is what is stored',
      });
    }
  });

/** The pattern's number of capturing groups, or why it does not compile. */
function captureGroupCount(pattern: string, flags: string): number | string {
  try {
    // An empty alternative always matches '', and the match has one slot per group.
    return (new RegExp(`${pattern}|`, flags).exec('')?.length ?? 1) - 1;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

const RequestPermissionSchema = z
  .object({
    title: TemplateSchema.pipe(z.string().min(1)),
    kind: z.enum(TOOL_KINDS).optional(),
    options: z
      .array(
        z
          .object({ option_id: z.string().min(1), name: z.string().min(1), kind: z.enum(PERMISSION_OPTION_KINDS) })
          .strict(),
      )
      .optional(),
    var: z
      .string()
      .regex(VARIABLE_NAME, 'a variable name is a letter or _, then letters, digits, _ or -')
      .default('permission'),
  })
  .strict();

// One object with every step key optional, then "exactly one key": this yields clearer messages
// than a union (which only says "invalid input" when no branch fits).
const RawStepSchema = z
  .object({
    call_tool: z
      .object({ name: z.string().min(1), arguments: ArgumentsSchema })
      .strict()
      .optional(),
    list_tools: z.literal(true).optional(),
    known_tools: z.literal(true).optional(),
    reply: TemplateSchema.optional(),
    capture: CaptureSchema.optional(),
    wait_for_cancel: z.literal(true).optional(),
    wait_for_file: TemplateSchema.pipe(z.string().min(1)).optional(),
    exit: z
      .object({ code: z.number().int().min(0).max(255) })
      .strict()
      .optional(),
    request_permission: RequestPermissionSchema.optional(),
  })
  .strict()
  .superRefine((step, ctx) => {
    const present = STEP_KINDS.filter((kind) => step[kind] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `a step needs exactly one of ${STEP_KINDS.join(', ')} (found ${present.length === 0 ? 'none' : present.join(', ')})`,
      });
    }
  });

export type Step =
  /** Every string value of `arguments` (at any depth) may hold placeholders, filled in when the turn runs. */
  | { kind: 'call_tool'; name: string; arguments: Record<string, unknown> }
  | { kind: 'list_tools' }
  /** The tools as the agent last listed them (at connect, or on list_changed unless it ignores that). */
  | { kind: 'known_tools' }
  /** `text` may hold placeholders ({{prompt}}, {{ordinal}}, {{system_prompt}}, {{var:<name>}}). */
  | { kind: 'reply'; text: string }
  /** Stores group 1 of `pattern` (JS syntax, with `flags`) matched against `from` as variable `name`. */
  | { kind: 'capture'; name: string; pattern: string; flags: string; from: CaptureSource }
  | { kind: 'wait_for_cancel' }
  /** `path` may hold placeholders; a relative path is resolved against the ACP session's cwd. */
  | { kind: 'wait_for_file'; path: string }
  | { kind: 'exit'; code: number }
  /**
   * ACP session/request_permission to the client (a pending tool_call update first); the outcome (the
   * chosen option id, or `cancelled`) is stored as variable `var`.
   */
  | {
      kind: 'request_permission';
      title: string;
      toolKind: (typeof TOOL_KINDS)[number] | undefined;
      options: readonly { option_id: string; name: string; kind: (typeof PERMISSION_OPTION_KINDS)[number] }[];
      var: string;
    };

export const StepSchema = RawStepSchema.transform((step): Step => {
  if (step.call_tool !== undefined) return { kind: 'call_tool', ...step.call_tool };
  if (step.list_tools !== undefined) return { kind: 'list_tools' };
  if (step.known_tools !== undefined) return { kind: 'known_tools' };
  if (step.reply !== undefined) return { kind: 'reply', text: step.reply };
  if (step.capture !== undefined) return { kind: 'capture', ...step.capture };
  if (step.exit !== undefined) return { kind: 'exit', code: step.exit.code };
  if (step.wait_for_file !== undefined) return { kind: 'wait_for_file', path: step.wait_for_file };
  if (step.request_permission !== undefined) {
    const { title, kind, options, var: name } = step.request_permission;
    return {
      kind: 'request_permission',
      title,
      toolKind: kind,
      options: options ?? DEFAULT_PERMISSION_OPTIONS,
      var: name,
    };
  }
  return { kind: 'wait_for_cancel' };
});

const turnBodyShape = {
  steps: z.array(StepSchema),
  stop_reason: z.enum(SCRIPT_STOP_REASONS).default('end_turn'),
};

export const TurnBodySchema = z.object(turnBodyShape).strict();
export type TurnBody = z.output<typeof TurnBodySchema>;

export const MatchSchema = z
  .object({ index: z.number().int().min(0).optional(), contains: z.string().min(1).optional() })
  .strict()
  .refine((m) => m.index !== undefined || m.contains !== undefined, 'match needs index or contains');
export type Match = z.output<typeof MatchSchema>;

export const TurnSchema = z.object({ match: MatchSchema.optional(), ...turnBodyShape }).strict();
export type Turn = z.output<typeof TurnSchema>;

/** The modes the agent offers: `default` asks its client before acting; `auto` acts without asking. */
export const AGENT_MODES = ['default', 'auto'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

/** How the agent behaves beyond its turns (README, "Agent options"). */
export const AgentOptionsSchema = z
  .object({
    /** Advertise the ACP systemPrompt capability (append); false: the agent takes no system prompt. */
    system_prompt: z.boolean().default(true),
    /** On tools/list_changed: list again (as Claude Code and Gemini CLI do) or not (as Codex does). */
    list_changed: z.enum(['relist', 'ignore']).default('relist'),
    /** The mode a session starts in (`auto`: like an agent whose own default never asks its client). */
    initial_mode: z.enum(AGENT_MODES).default('default'),
    /** `ignore`: never connect to the MCP server given (as Gemini CLI in a folder it does not trust). */
    mcp: z.enum(['connect', 'ignore']).default('connect'),
  })
  .strict();
export type AgentOptions = z.output<typeof AgentOptionsSchema>;

export const ScriptSchema = z
  .object({
    agent: AgentOptionsSchema.default({
      system_prompt: true,
      list_changed: 'relist',
      initial_mode: 'default',
      mcp: 'connect',
    }),
    turns: z.array(TurnSchema),
    default: TurnBodySchema.optional(),
  })
  .strict();
export type Script = z.output<typeof ScriptSchema>;

/** Parses a script from JSON text; throws ScriptError naming each problem. */
export function parseScript(text: string): Script {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ScriptError(`not valid JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const result = ScriptSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new ScriptError(problems.join('; '));
  }
  return result.data;
}

/** What an unmatched prompt gets when the script has no `default`. */
export const FALLBACK_TURN: TurnBody = {
  steps: [{ kind: 'reply', text: 'no scripted turn for this prompt' }],
  stop_reason: 'end_turn',
};

/**
 * The turn for a prompt: the first turn whose `contains` occurs in the text, else the turn whose index
 * (its `match.index`, or its position when it has no `match`) equals the prompt's 0-based ordinal,
 * else `default`, else FALLBACK_TURN.
 */
export function selectTurn(script: Script, promptText: string, ordinal: number): TurnBody {
  const byText = script.turns.find((t) => t.match?.contains !== undefined && promptText.includes(t.match.contains));
  if (byText !== undefined) return byText;
  const byIndex = script.turns.find((t, position) => indexOf(t, position) === ordinal);
  return byIndex ?? script.default ?? FALLBACK_TURN;
}

function indexOf(turn: Turn, position: number): number | undefined {
  if (turn.match === undefined) return position;
  return turn.match.index;
}
