import type { Provider } from '../provider';
import type { QuestionCapability } from '../question-capability';
import type { Surface } from '../surface';
import type { ToolContext } from './tool-context';
import { selectTools } from './tool-groups';

function context(
  surface: Surface,
  questionCapability: QuestionCapability,
  providers: Provider[],
  ownsTaskTitle = false,
): ToolContext {
  return { surface, questionCapability, providers: new Set(providers), ownsTaskTitle };
}

const sortedNames = (ctx: ToolContext) =>
  selectTools(ctx)
    .map((tool) => tool.name)
    .sort();

// Each row: a named session shape and the exact tools it must discover (sorted, written out in full).
const CASES: [string, ToolContext, string[]][] = [
  [
    'normal kanban task with github and gitlab repositories',
    context('kanban_task', 'user', ['github', 'gitlab']),
    [
      'add_workspace_sources_kandev',
      'ask_user_question_kandev',
      'create_task_kandev',
      'get_task_conversation_kandev',
      'get_task_kandev',
      'get_task_mr_automation_kandev',
      'get_task_pr_automation_kandev',
      'list_task_sessions_kandev',
      'list_tasks_kandev',
      'message_task_kandev',
      'step_complete_kandev',
      'stop_task_kandev',
      'update_task_kandev',
      'update_task_mr_automation_kandev',
      'update_task_pr_automation_kandev',
    ],
  ],
  [
    'autopilot child (parent capability) with only gitlab',
    context('kanban_task', 'parent', ['gitlab']),
    [
      'add_workspace_sources_kandev',
      'ask_parent_question_kandev',
      'create_task_kandev',
      'get_task_conversation_kandev',
      'get_task_kandev',
      'get_task_mr_automation_kandev',
      'list_task_sessions_kandev',
      'list_tasks_kandev',
      'message_task_kandev',
      'step_complete_kandev',
      'stop_task_kandev',
      'update_task_kandev',
      'update_task_mr_automation_kandev',
    ],
  ],
  [
    'autopilot root (no question capability) with no providers',
    context('kanban_task', 'none', []),
    [
      'add_workspace_sources_kandev',
      'create_task_kandev',
      'get_task_conversation_kandev',
      'get_task_kandev',
      'list_task_sessions_kandev',
      'list_tasks_kandev',
      'message_task_kandev',
      'step_complete_kandev',
      'stop_task_kandev',
      'update_task_kandev',
    ],
  ],
  [
    'office task with github: office core and the user question, no provider tools',
    context('office_task', 'user', ['github']),
    ['ask_user_question_kandev', 'get_task_kandev', 'message_task_kandev', 'step_complete_kandev'],
  ],
  [
    'office task with parent capability: the parent question on every surface, no provider tools',
    context('office_task', 'parent', ['gitlab']),
    ['ask_parent_question_kandev', 'get_task_kandev', 'message_task_kandev', 'step_complete_kandev'],
  ],
  [
    'configuration session',
    context('configuration', 'none', ['github', 'gitlab']),
    ['list_agent_profiles_kandev', 'list_repositories_kandev', 'list_workspaces_kandev'],
  ],
  [
    'normal kanban task that owns its title',
    context('kanban_task', 'user', [], true),
    [
      'add_workspace_sources_kandev',
      'ask_user_question_kandev',
      'create_task_kandev',
      'get_task_conversation_kandev',
      'get_task_kandev',
      'list_task_sessions_kandev',
      'list_tasks_kandev',
      'message_task_kandev',
      'set_task_title_kandev',
      'step_complete_kandev',
      'stop_task_kandev',
      'update_task_kandev',
    ],
  ],
];

describe('selectTools', () => {
  test.each(CASES)('%s', (_name, ctx, expected) => {
    expect(expected).toEqual([...expected].sort());
    expect(sortedNames(ctx)).toEqual(expected);
  });
});
