import { createTaskTool, updateTaskTool } from './task-tools';
import { addWorkspaceSourcesTool } from './workspace-source-tools';
import { askParentQuestionTool, askUserQuestionTool } from './question-tools';
import { updateTaskPrAutomationTool } from './review-automation-tools';

const question = { prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'PostgreSQL' }] };

// Table of [tool, arguments, accepted?]: the argument contracts agents rely on.
const CASES = [
  [
    'create_task with autopilot and parent "self"',
    createTaskTool,
    { title: 'Child', parent_id: 'self', autopilot: true },
    true,
  ],
  ['create_task without a title', createTaskTool, { prompt: 'x' }, false],
  ['update_task rejects autopilot', updateTaskTool, { task_id: 't1', autopilot: true }, false],
  ['update_task needs something to change', updateTaskTool, { task_id: 't1' }, false],
  ['update_task title only', updateTaskTool, { title: 'New title' }, true],
  [
    'sources: repository id, remote with provider and branch, local path',
    addWorkspaceSourcesTool,
    {
      sources: [
        { repository_id: 'r1' },
        { remote_url: 'https://gitlab.example/a/b', provider: 'gitlab', base_branch: 'main' },
        { local_path: '/srv/x' },
      ],
    },
    true,
  ],
  [
    'sources: one source may not mix kinds',
    addWorkspaceSourcesTool,
    { sources: [{ repository_id: 'r1', local_path: '/x' }] },
    false,
  ],
  ['sources: empty list', addWorkspaceSourcesTool, { sources: [] }, false],
  [
    'sources: unknown provider',
    addWorkspaceSourcesTool,
    { sources: [{ remote_url: 'https://x/y', provider: 'svn' }] },
    false,
  ],
  ['user question', askUserQuestionTool, { questions: [question] }, true],
  ['user question without options (free text)', askUserQuestionTool, { questions: [{ prompt: 'Why?' }] }, true],
  [
    'user question with one option',
    askUserQuestionTool,
    { questions: [{ prompt: 'x', options: [{ label: 'a' }] }] },
    false,
  ],
  ['parent question needs blocked_reason', askParentQuestionTool, { questions: [question], context: 'ctx' }, false],
  [
    'parent question',
    askParentQuestionTool,
    { questions: [question], context: 'ctx', blocked_reason: 'Need the DB choice' },
    true,
  ],
  [
    'PR automation: repository without number',
    updateTaskPrAutomationTool,
    { repository_id: 'r1', auto_merge_enabled: true },
    false,
  ],
  ['PR automation: task-wide switch', updateTaskPrAutomationTool, { auto_merge_enabled: true }, true],
] as const;

describe('tool input contracts', () => {
  test.each(CASES)('%s', (_name, tool, args, accepted) => {
    expect(tool.input.safeParse(args).success).toBe(accepted);
  });
});
