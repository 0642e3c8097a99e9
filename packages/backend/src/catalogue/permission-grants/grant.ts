import { z } from 'zod';
import type { PermissionOptionInfo, PermissionRequestInfo } from '@kandev/protocol';

// Pure: kandev's own memory of "Allow always" (docs/agents.md). An agent told
// allow_always persists a rule itself, outside the task workspace (Claude Code in the source
// repository's .claude/settings.local.json, Codex in $CODEX_HOME), so kandev never passes that answer
// on when the agent offers allow_once: it records a grant for the task and answers allow_once, and
// answers every later request the grant covers with allow_once, without asking anyone.
//
// A grant covers exactly one (tool kind, title) in one task: for a shell command the title is the
// command line, for an edit the file. No prefix, pattern or normalisation: "always" means "this exact
// action again in this task", so a different command always asks.

/** Longer titles never create or match a grant (they are asked every time): bounds the unique index. */
export const MAX_GRANT_TITLE_BYTES = 2000;
/** The column's width; ACP kinds are short words (read, edit, execute, ...). */
export const MAX_GRANT_TOOL_KIND = 64;

/** What a grant is keyed by within its task. The agent's missing kind is ''. */
export interface GrantKey {
  readonly toolKind: string;
  readonly title: string;
}

export interface PermissionGrant extends GrantKey {
  readonly id: string;
  readonly taskId: string;
  /** 'operator', or 'task:<id>' for the autopilot parent whose reply chose "always". */
  readonly grantedBy: string;
  /** The session whose request was answered "always" (null once that session row is gone). */
  readonly sessionId: string | null;
  readonly createdAt: string;
}

export const OPERATOR_GRANTOR = 'operator';

export function parentGrantor(parentTaskId: string): string {
  return `task:${parentTaskId}`;
}

/** The request's key, or null when it can never be granted: an empty (or blank) or overlong title. */
export function grantKeyOf(request: Pick<PermissionRequestInfo, 'title' | 'toolKind'>): GrantKey | null {
  const toolKind = request.toolKind ?? '';
  if (request.title.trim().length === 0) return null;
  if (new TextEncoder().encode(request.title).length > MAX_GRANT_TITLE_BYTES) return null;
  if (toolKind.length > MAX_GRANT_TOOL_KIND) return null;
  return { toolKind, title: request.title };
}

/** Exact equality of kind and title: never a prefix, never case-folded, never trimmed. */
export function isSameKey(a: GrantKey, b: GrantKey): boolean {
  return a.toolKind === b.toolKind && a.title === b.title;
}

export function allowOnceOption(options: readonly PermissionOptionInfo[]): PermissionOptionInfo | undefined {
  return options.find((option) => option.kind === 'allow_once');
}

export type GrantVerdict = { kind: 'allow'; optionId: string; grant: PermissionGrant } | { kind: 'ask' };

/**
 * A request a grant of its task covers is allowed once, at once. Without an allow_once option the only
 * allowing answer would be allow_always (the agent would store its own rule): someone is asked instead.
 */
export function decideByGrants(request: PermissionRequestInfo, grants: readonly PermissionGrant[]): GrantVerdict {
  const key = grantKeyOf(request);
  const once = allowOnceOption(request.options);
  const grant = key === null ? undefined : grants.find((candidate) => isSameKey(candidate, key));
  return grant === undefined || once === undefined
    ? { kind: 'ask' }
    : { kind: 'allow', optionId: once.optionId, grant };
}

/** A chosen answer as the agent receives it, and the key to remember when it was "always". */
export interface SettledAnswer {
  readonly optionId: string;
  readonly remember: GrantKey | null;
}

/**
 * The operator's (or parent's) chosen option id. allow_always becomes the request's allow_once (the
 * chosen option only when the agent offered none) and is remembered when the request has a key;
 * anything else goes to the agent unchanged.
 */
export function settleAnswer(request: PermissionRequestInfo, chosenOptionId: string): SettledAnswer {
  const chosen = request.options.find((option) => option.optionId === chosenOptionId);
  if (chosen?.kind !== 'allow_always') return { optionId: chosenOptionId, remember: null };
  const once = allowOnceOption(request.options);
  return { optionId: once?.optionId ?? chosenOptionId, remember: grantKeyOf(request) };
}

/** A grant as GET /api/tasks/:id/permission-grants lists it. */
export const PermissionGrantViewSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    tool_kind: z.string().describe("the tool call's ACP kind ('' when the agent gave none)"),
    title: z.string().describe('the exact title the grant covers (a command line, a file)'),
    granted_by: z.string().describe("'operator' or 'task:<parent task id>'"),
    session_id: z.string().nullable().describe('the session whose request was answered "always"'),
    created_at: z.string(),
  })
  .strict()
  .meta({ id: 'PermissionGrant' });
export type PermissionGrantView = z.infer<typeof PermissionGrantViewSchema>;

export function toPermissionGrantView(grant: PermissionGrant): PermissionGrantView {
  return {
    id: grant.id,
    task_id: grant.taskId,
    tool_kind: grant.toolKind,
    title: grant.title,
    granted_by: grant.grantedBy,
    session_id: grant.sessionId,
    created_at: grant.createdAt,
  };
}
