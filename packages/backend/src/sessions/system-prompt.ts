import type { QuestionCapability } from '@kandev/protocol';

/** The MCP question tool each capability grants (agentctl registers exactly this one, or none). */
export const QUESTION_TOOL: Record<QuestionCapability, string | null> = {
  user: 'ask_user_question_kandev',
  parent: 'ask_parent_question_kandev',
  none: null,
};

const PREAMBLE = 'You are a coding agent working on one kandev task. Use the kandev MCP tools for task work.';

const GUIDANCE: Record<QuestionCapability, string> = {
  user:
    `When you need a decision only the operator can make, ask with ${QUESTION_TOOL.user}. ` + 'Otherwise keep working.',
  parent:
    'This task runs in autopilot as a subtask; no operator is watching it. ' +
    `When you need a decision you cannot make yourself, ask your parent task with ${QUESTION_TOOL.parent}. ` +
    'The answer arrives later as a new message, so end your turn after asking.',
  none:
    'This task runs in autopilot with no parent task. No one can be asked: there is no operator and no parent. ' +
    'Proceed with your best judgment and state the assumptions you make.',
};

/** Short and different for a normal task, an autopilot child and an autopilot root. */
export function systemPromptFor(capability: QuestionCapability): string {
  return `${PREAMBLE}\n${GUIDANCE[capability]}`;
}
