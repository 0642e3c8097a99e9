import { askParentQuestionTool, askUserQuestionTool, type QuestionCapability } from '@kandev/protocol';

/** The MCP question tool each capability grants (agentctl registers exactly this one, or none). */
export const QUESTION_TOOL: Record<QuestionCapability, string | null> = {
  user: askUserQuestionTool.name,
  parent: askParentQuestionTool.name,
  none: null,
};

const PREAMBLE = 'You are a coding agent working on one kandev task. Use the kandev MCP tools for task work.';

// Each prompt names only the question tool its capability grants (a test compares every *_kandev
// name here with the tools agentctl serves a session of that capability).
const GUIDANCE: Record<QuestionCapability, string> = {
  user:
    `You may ask the operator when you need a decision only they can make: use ${QUESTION_TOOL.user} ` +
    '(it waits for the answer). Otherwise keep working.',
  parent:
    'This task runs in autopilot as a subtask; no operator is watching it. Make safe, reversible assumptions ' +
    'and keep working. Ask your parent task only for a decision that would materially change the outcome, with ' +
    `${QUESTION_TOOL.parent}. It returns at once: the parent question must be the last action of your turn, so ` +
    'end your turn right after asking. The answer arrives later as a new message.',
  none:
    'This task runs in autopilot with no parent task. No one can be asked: there is no operator and no parent. ' +
    'Proceed with your best judgment, and disclose every material assumption you make in your final message.',
};

/** Short and different for a normal task, an autopilot child and an autopilot root. */
export function systemPromptFor(capability: QuestionCapability): string {
  return `${PREAMBLE}\n${GUIDANCE[capability]}`;
}

/** Every MCP tool name a prompt mentions (`*_kandev`), in order of appearance, once each. */
export function toolNamesIn(prompt: string): string[] {
  return [...new Set(prompt.match(/\b[a-z][a-z0-9_]*_kandev\b/g) ?? [])];
}
