import type { PermissionPolicy } from '@kandev/protocol';
import type { Logger } from '../logger';
import { applyPolicyMode, type HandshakeNotice } from './agent-handshake';
import type { OpenSession } from './agent-start';
import { type AgentToolView, toolChanges } from './agent-tool-view';

// What happens at a turn boundary before a prompt reaches the agent: an agent that did not pick up a
// changed tool list (it ignores list_changed: it never re-listed) gets its ACP session reopened, so it
// connects and lists again, and is told what changed. Never during a turn: only before a prompt.

export interface ToolRefreshContext {
  readonly policy: PermissionPolicy;
  readonly tools: AgentToolView;
  /** How long an agent may take to re-list after list_changed before it counts as not listening. */
  readonly graceMs: number;
  readonly log: Logger;
}

export interface ToolRefresh {
  /** The tool names the agent has now. */
  readonly toolNames: readonly string[];
  /** A line for the prompt telling the agent what changed, when its session was reopened for it. */
  readonly note: string | null;
  readonly notice: HandshakeNotice | null;
}

function describeChanges(added: readonly string[], removed: readonly string[]): string {
  const parts = [
    ...(added.length > 0 ? [`added ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : []),
  ];
  return parts.join('; ');
}

/**
 * `seen`: the tool names the agent had after its last listing. Unchanged, or re-listed by the agent in
 * time: nothing to do. Otherwise, with session/close and session/resume (or load), the ACP session is
 * reopened in the same process and its mode set again (agents reset it); an agent without them keeps
 * its list (calls to removed tools are refused by agentctl either way).
 */
async function refreshAgentTools(session: OpenSession, ctx: ToolRefreshContext): Promise<ToolRefresh> {
  const seen = session.toolNames;
  const current = ctx.tools.toolNames();
  const { added, removed } = toolChanges(seen, current);
  if (added.length === 0 && removed.length === 0) return { toolNames: seen, note: null, notice: null };
  if (await ctx.tools.listedCurrent(ctx.graceMs)) return { toolNames: current, note: null, notice: null };
  const { capabilities, setup } = session.handshake;
  const { connection, acpSessionId } = session;
  const changes = describeChanges(added, removed);
  if (!capabilities.closeSession || !(capabilities.resumeSession || capabilities.loadSession)) {
    ctx.log.warn({ added, removed }, 'the agent did not re-list its tools and cannot reopen its session');
    return { toolNames: current, note: null, notice: null };
  }
  await connection.closeSession(acpSessionId);
  const modes = capabilities.resumeSession
    ? await connection.resumeSession(acpSessionId, setup)
    : await connection.loadSession(acpSessionId, setup);
  await applyPolicyMode(connection, acpSessionId, ctx.policy, modes);
  ctx.log.info({ added, removed }, 'reopened the agent session for its changed tools');
  return {
    toolNames: current,
    note: `Note from kandev: your kandev tools changed since your last turn (${changes}).`,
    notice: {
      code: 'tools_reloaded',
      message: `the agent did not pick up its changed tools (${changes}); its ACP session was reopened before the next prompt`,
    },
  };
}

/** The prompt as the agent gets it: tools it missed applied first, with a note saying what changed. */
export async function prepareTurnText(
  session: OpenSession,
  text: string,
  ctx: ToolRefreshContext,
): Promise<{ text: string; notice: HandshakeNotice | null }> {
  const refresh = await refreshAgentTools(session, ctx);
  session.toolNames = refresh.toolNames;
  return { text: refresh.note === null ? text : `${refresh.note}\n\n${text}`, notice: refresh.notice };
}

/** Whether the session's tools differ from what the agent last listed (the boundary has work to do). */
export function toolsChangedFor(session: Pick<OpenSession, 'toolNames'>, tools: AgentToolView): boolean {
  const { added, removed } = toolChanges(session.toolNames, tools.toolNames());
  return added.length > 0 || removed.length > 0;
}
