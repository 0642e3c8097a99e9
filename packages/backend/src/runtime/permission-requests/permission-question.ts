import type { PermissionOptionInfo, PermissionRequestInfo } from '@kandev/protocol';
import type { AskUserQuestionArgs, Question } from '../questions/question';

// Pure: an agent's permission request (policy ask) as a question, and an answer back to the agent's
// option. The question carries the agent's options by name; the mapping back to option ids stays in
// memory with the held request (a permission question cannot be answered once its request is gone).

/** The id of the single question item of a permission question. */
export const PERMISSION_ITEM_ID = 'permission';
/** Offered when the agent gives fewer than two options (a question needs two): answering it rejects. */
export const REJECT_LABEL = 'Reject';
const MAX_OPTIONS = 6;
const MAX_LABEL = 60;

/** The option someone chose, and who: 'operator' or 'task:<parent id>' (catalogue/permission-grants/grant.ts). */
export interface ChosenOption {
  readonly optionId: string;
  readonly chosenBy: string;
}

export interface PermissionQuestion {
  readonly args: AskUserQuestionArgs;
  /** Option label -> the agent's option id; null: reject. */
  readonly optionByLabel: ReadonlyMap<string, string | null>;
}

function uniqueLabel(name: string, taken: ReadonlySet<string>): string {
  const base = (name.trim().length > 0 ? name.trim() : 'Option').slice(0, MAX_LABEL);
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? '' : ` (${n})`;
    const label = base.slice(0, MAX_LABEL - suffix.length).trim() + suffix;
    if (!taken.has(label)) return label;
  }
}

/** A one-item question whose options are the agent's (by name, kind as description). */
export function toPermissionQuestion(request: PermissionRequestInfo): PermissionQuestion {
  const optionByLabel = new Map<string, string | null>();
  const options: { label: string; description: string }[] = [];
  const add = (name: string, description: string, optionId: string | null) => {
    const label = uniqueLabel(name, new Set(optionByLabel.keys()));
    optionByLabel.set(label, optionId);
    options.push({ label, description });
  };
  for (const option of request.options.slice(0, MAX_OPTIONS)) add(option.name, option.kind, option.optionId);
  // A question needs two options: pad with answers that reject (an agent offering none can only be rejected).
  if (options.length < 2) add(REJECT_LABEL, 'reject the request', null);
  if (options.length < 2) add('Cancel', 'reject the request', null);
  const kind = request.toolKind === null ? '' : ` (${request.toolKind})`;
  const prompt = `The agent asks for permission: ${request.title}${kind}`.slice(0, 1000);
  return {
    args: {
      questions: [{ id: PERMISSION_ITEM_ID, title: 'Permission', prompt, options }],
      context: `Tool call ${request.toolCallId}. Answer with one option; no answer in time rejects the request.`,
    },
    optionByLabel,
  };
}

/** The agent's option id for a settled question; null (reject) unless it was answered with an option. */
export function permissionAnswer(question: Question, optionByLabel: ReadonlyMap<string, string | null>): string | null {
  if (question.state !== 'answered') return null;
  const label = question.answers?.[0]?.option;
  return label === undefined ? null : (optionByLabel.get(label) ?? null);
}

/**
 * A parent's free-text reply to a permission parent question, mapped to an option: the options whose
 * name or id the reply contains (case-insensitive), leaving out a name contained in another matched
 * one ("allow" inside "allow always"); exactly one left -> it, none or several -> null (reject).
 */
export function optionFromReply(reply: string, options: readonly PermissionOptionInfo[]): string | null {
  const text = reply.toLowerCase();
  const keyOf = (o: PermissionOptionInfo) => o.name.trim().toLowerCase();
  const matched = options.filter(
    (o) =>
      (keyOf(o).length > 0 && text.includes(keyOf(o))) ||
      (o.optionId.length > 0 && text.includes(o.optionId.toLowerCase())),
  );
  const maximal = matched.filter(
    (o) => !matched.some((other) => other !== o && keyOf(other).includes(keyOf(o)) && keyOf(other) !== keyOf(o)),
  );
  const ids = new Set(maximal.map((o) => o.optionId));
  const [only] = ids;
  return ids.size === 1 && only !== undefined ? only : null;
}
