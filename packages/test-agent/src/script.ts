// The script format (zod) and the pure rule that picks a turn for a prompt. No I/O here.
import { z } from 'zod';
import { PLACEHOLDERS, unknownPlaceholders } from './reply-template';

export const SCRIPT_STOP_REASONS = ['end_turn', 'refusal', 'max_tokens'] as const;
export type ScriptStopReason = (typeof SCRIPT_STOP_REASONS)[number];

/** A bad script: the message names every problem (path: what is wrong). */
export class ScriptError extends Error {
  constructor(message: string, opts?: ErrorOptions) {
    super(message, opts);
    this.name = 'ScriptError';
  }
}

const STEP_KINDS = ['call_tool', 'list_tools', 'reply', 'wait_for_cancel', 'wait_for_file', 'exit'] as const;

/** Text that may hold {{prompt}} and {{ordinal}}; any other {{name}} is an error at load time. */
const TemplateSchema = z.string().superRefine((text, ctx) => {
  for (const name of unknownPlaceholders(text)) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown placeholder {{${name}}} (known: ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')})`,
    });
  }
});

// One object with every step key optional, then "exactly one key": this yields clearer messages
// than a union (which only says "invalid input" when no branch fits).
const RawStepSchema = z
  .object({
    call_tool: z
      .object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) })
      .strict()
      .optional(),
    list_tools: z.literal(true).optional(),
    reply: TemplateSchema.optional(),
    wait_for_cancel: z.literal(true).optional(),
    wait_for_file: TemplateSchema.pipe(z.string().min(1)).optional(),
    exit: z
      .object({ code: z.number().int().min(0).max(255) })
      .strict()
      .optional(),
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
  | { kind: 'call_tool'; name: string; arguments: Record<string, unknown> }
  | { kind: 'list_tools' }
  /** `text` may hold {{prompt}} and {{ordinal}}, filled in when the turn runs. */
  | { kind: 'reply'; text: string }
  | { kind: 'wait_for_cancel' }
  /** `path` may hold placeholders; a relative path is resolved against the ACP session's cwd. */
  | { kind: 'wait_for_file'; path: string }
  | { kind: 'exit'; code: number };

export const StepSchema = RawStepSchema.transform((step): Step => {
  if (step.call_tool !== undefined) return { kind: 'call_tool', ...step.call_tool };
  if (step.list_tools !== undefined) return { kind: 'list_tools' };
  if (step.reply !== undefined) return { kind: 'reply', text: step.reply };
  if (step.exit !== undefined) return { kind: 'exit', code: step.exit.code };
  if (step.wait_for_file !== undefined) return { kind: 'wait_for_file', path: step.wait_for_file };
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

export const ScriptSchema = z.object({ turns: z.array(TurnSchema), default: TurnBodySchema.optional() }).strict();
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
