import type { ToolDefinition } from './tool-definition';
import { listAgentProfilesTool, listRepositoriesTool, listWorkspacesTool } from './configuration-tools';
import { askParentQuestionTool, askUserQuestionTool } from './question-tools';
import {
  getTaskPrAutomationTool,
  updateTaskMrAutomationTool,
  updateTaskPrAutomationTool,
} from './review-automation-tools';
import {
  createTaskTool,
  getTaskConversationTool,
  getTaskTool,
  listTasksTool,
  listTaskSessionsTool,
  messageTaskTool,
  stepCompleteTool,
  stopTaskTool,
  updateTaskTool,
} from './task-tools';
import { setTaskTitleTool } from './task-title-tools';
import { addWorkspaceSourcesTool } from './workspace-source-tools';

// One schema per tool, used by agentctl before forwarding and by the backend on every call: the calls
// agents make are accepted, and what either side must refuse is refused (the samples the former
// backend/agentctl contract tests held).

const question = (extra: object = {}) => ({ prompt: 'Which?', ...extra });

const ACCEPTED: [ToolDefinition, unknown[]][] = [
  [listTasksTool, [{}, { parent_id: 'self', state: 'done', limit: 5 }]],
  [getTaskTool, [{}, { task_id: 't1' }]],
  [
    createTaskTool,
    [{ title: 'T' }, { title: 'T', prompt: 'p', parent_id: 'self', autopilot: true, start_agent: false }],
  ],
  [updateTaskTool, [{ state: 'review' }, { task_id: 't', title: 'x' }]],
  [messageTaskTool, [{ task_id: 't', prompt: 'p', reply_to_question_id: 'q' }]],
  [stopTaskTool, [{ task_id: 't' }, { task_id: 't', reason: 'r' }]],
  [listTaskSessionsTool, [{}, { task_id: 't' }]],
  [getTaskConversationTool, [{ cursor: 'c', limit: 10 }]],
  [stepCompleteTool, [{ summary: 's' }, { summary: 's', handoff: 'h' }]],
  [setTaskTitleTool, [{ title: 'Short title' }]],
  [
    addWorkspaceSourcesTool,
    [
      {
        sources: [
          { repository_id: 'r' },
          { remote_url: 'https://gitlab.com/a/b', provider: 'gitlab', base_branch: 'main' },
        ],
      },
    ],
  ],
  [listWorkspacesTool, [{}]],
  [listRepositoriesTool, [{}, { workspace_id: 'w' }]],
  [listAgentProfilesTool, [{}]],
  [getTaskPrAutomationTool, [{}]],
  [
    updateTaskPrAutomationTool,
    [{ auto_fix_enabled: true }, { repository_id: 'r', pr_number: 1, prompt_on_closed: true }],
  ],
  [updateTaskMrAutomationTool, [{ repository_id: 'r', mr_iid: 1, prompt_on_closed: true }]],
  [
    askUserQuestionTool,
    [
      { questions: [{ prompt: 'Why?' }] },
      {
        questions: [
          {
            id: 'db',
            title: 'Database',
            prompt: 'Which?',
            options: [{ label: 'A', description: 'a' }, { label: 'B' }],
          },
          { prompt: 'Anything else?' },
        ],
        context: 'ctx',
      },
    ],
  ],
  [
    askParentQuestionTool,
    [
      { questions: [question()], blocked_reason: 'the schema' },
      {
        questions: [question({ id: 'db', title: 'DB', options: [{ label: 'A', description: 'a' }, { label: 'B' }] })],
        context: 'ctx',
        blocked_reason: 'migration',
      },
    ],
  ],
];

const REFUSED: [ToolDefinition, unknown[]][] = [
  [listTasksTool, [{ state: 'bogus' }, { limit: 0 }, { limit: 201 }]],
  [getTaskTool, [{ task_id: '' }, { task_id: 't', session_id: 's' }]],
  [
    createTaskTool,
    [{}, { title: '' }, { title: 'x'.repeat(61) }, { title: 'T', prompt: ' ' }, { title: 'T', prompt: '\u0085' }],
  ],
  [updateTaskTool, [{}, { task_id: 't' }, { autopilot: true, title: 'x' }, { state: 'bogus' }]],
  [
    messageTaskTool,
    [
      { prompt: ' ', task_id: 't' },
      // The same rule as REST prompts (prompt-text.ts): whitespace of any kind is blank.
      { prompt: '\t\n', task_id: 't' },
      { prompt: '\u00a0', task_id: 't' },
      { prompt: '\u0085', task_id: 't', reply_to_question_id: 'q' },
      { task_id: '', prompt: 'p' },
    ],
  ],
  [stepCompleteTool, [{ summary: '' }, { summary: '   ' }]],
  [addWorkspaceSourcesTool, [{ sources: [] }, { sources: [{ remote_url: 'https://x/y', provider: 'svn' }] }]],
  [updateTaskPrAutomationTool, [{}, { repository_id: 'r', auto_fix_enabled: true }]],
  [updateTaskMrAutomationTool, [{}, { mr_iid: 1, auto_fix_enabled: true }]],
  [
    askUserQuestionTool,
    [
      {},
      { questions: [] },
      { questions: [{ prompt: '' }] },
      { questions: [{ prompt: 'x', options: [{ label: 'a' }] }] },
      { questions: [{ prompt: 'x', options: [{ label: 'a' }, { label: 'a' }] }] },
      { questions: [{ prompt: 'x', title: 'much too long title' }] },
      { questions: Array.from({ length: 5 }, () => ({ prompt: 'x' })) },
      { questions: [{ prompt: 'x' }], task_id: 't' },
      { questions: [{ prompt: 'x', options: Array.from({ length: 7 }, (_, i) => ({ label: `o${i}` })) }] },
      {
        questions: [
          { id: 'a', prompt: 'x' },
          { id: 'a', prompt: 'y' },
        ],
      },
    ],
  ],
  [
    askParentQuestionTool,
    [
      {},
      { questions: [{ prompt: 'x' }] },
      { questions: [{ prompt: 'x' }], blocked_reason: '' },
      { questions: [{ prompt: 'x' }], blocked_reason: 'x'.repeat(201) },
      { questions: [], blocked_reason: 'b' },
      { questions: [{ prompt: 'x', options: [{ label: 'a' }] }], blocked_reason: 'b' },
      { questions: [{ prompt: 'x' }], blocked_reason: 'b', task_id: 't' },
    ],
  ],
];

describe('tool inputs: one schema per tool', () => {
  test.each(ACCEPTED.map(([tool, samples]) => [tool.name, tool, samples] as const))(
    '%s accepts',
    (_n, tool, samples) => {
      for (const sample of samples)
        expect({ sample, ok: tool.input.safeParse(sample).success }).toEqual({ sample, ok: true });
    },
  );

  test.each(REFUSED.map(([tool, samples]) => [tool.name, tool, samples] as const))(
    '%s refuses',
    (_n, tool, samples) => {
      for (const sample of samples)
        expect({ sample, ok: tool.input.safeParse(sample).success }).toEqual({ sample, ok: false });
    },
  );

  test('the configuration tools take the inputs agents are told about', () => {
    expect(Object.keys(listWorkspacesTool.input.shape)).toEqual([]);
    expect(Object.keys(listRepositoriesTool.input.shape)).toEqual(['workspace_id']);
    expect(Object.keys(listAgentProfilesTool.input.shape)).toEqual([]);
  });
});
