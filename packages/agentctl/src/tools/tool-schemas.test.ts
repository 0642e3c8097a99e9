import { createTask, updateTask } from './task-tools';
import { addWorkspaceSources } from './workspace-source-tools';
import { askParentQuestion, askUserQuestion } from './question-tools';
import { updateTaskPrAutomation } from './review-automation-tools';

const question = { prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'PostgreSQL' }] };

// Table of [tool, arguments, accepted?]: the argument contracts agents rely on.
const CASES = [
  [
    'create_task with autopilot and parent "self"',
    createTask,
    { title: 'Child', parent_id: 'self', autopilot: true },
    true,
  ],
  ['create_task without a title', createTask, { prompt: 'x' }, false],
  ['update_task rejects autopilot', updateTask, { task_id: 't1', autopilot: true }, false],
  ['update_task needs something to change', updateTask, { task_id: 't1' }, false],
  ['update_task title only', updateTask, { title: 'New title' }, true],
  [
    'sources: repository id, remote with provider and branch, local path',
    addWorkspaceSources,
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
    addWorkspaceSources,
    { sources: [{ repository_id: 'r1', local_path: '/x' }] },
    false,
  ],
  ['sources: empty list', addWorkspaceSources, { sources: [] }, false],
  [
    'sources: unknown provider',
    addWorkspaceSources,
    { sources: [{ remote_url: 'https://x/y', provider: 'svn' }] },
    false,
  ],
  ['user question', askUserQuestion, { questions: [question] }, true],
  ['user question without options (free text)', askUserQuestion, { questions: [{ prompt: 'Why?' }] }, true],
  [
    'user question with one option',
    askUserQuestion,
    { questions: [{ prompt: 'x', options: [{ label: 'a' }] }] },
    false,
  ],
  ['parent question needs blocked_reason', askParentQuestion, { questions: [question], context: 'ctx' }, false],
  [
    'parent question',
    askParentQuestion,
    { questions: [question], context: 'ctx', blocked_reason: 'Need the DB choice' },
    true,
  ],
  [
    'PR automation: repository without number',
    updateTaskPrAutomation,
    { repository_id: 'r1', auto_merge_enabled: true },
    false,
  ],
  ['PR automation: task-wide switch', updateTaskPrAutomation, { auto_merge_enabled: true }, true],
] as const;

describe('tool input contracts', () => {
  test.each(CASES)('%s', (_name, tool, args, accepted) => {
    expect(tool.input.safeParse(args).success).toBe(accepted);
  });
});
