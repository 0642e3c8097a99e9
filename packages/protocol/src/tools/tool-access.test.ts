import { AppError } from '../errors';
import type { LaunchConfig } from '../launch-config';
import type { Provider } from '../provider';
import type { Surface } from '../surface';
import { assertToolServed, TOOL_CATALOGUE } from './tool-access';

type Served = Pick<LaunchConfig, 'surface' | 'questionCapability' | 'providers' | 'ownsTaskTitle'>;

function config(surface: Surface, extra: Partial<Served> = {}): Served {
  return { surface, questionCapability: 'user', providers: [], ownsTaskTitle: false, ...extra };
}

function refusal(tool: string, session: Served): string | undefined {
  try {
    assertToolServed(tool, session);
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

const servedOn = (session: Served) => [...TOOL_CATALOGUE.keys()].filter((tool) => refusal(tool, session) === undefined);

// The backend's check on every incoming call (discovery is not a security boundary), over the same
// table agentctl lists from.
describe('assertToolServed', () => {
  test('the office surface gets get_task, message_task and step_complete (and its question tool) only', () => {
    expect(
      servedOn(config('office_task', { questionCapability: 'none', providers: ['github', 'gitlab'] })).sort(),
    ).toEqual(['get_task_kandev', 'message_task_kandev', 'step_complete_kandev']);
  });

  test('configuration tools only on the configuration surface, task tools never there', () => {
    expect(servedOn(config('configuration', { questionCapability: 'none' })).sort()).toEqual([
      'list_agent_profiles_kandev',
      'list_repositories_kandev',
      'list_workspaces_kandev',
    ]);
    expect(refusal('list_workspaces_kandev', config('kanban_task'))).toBe('permission_denied');
  });

  test('set_task_title only for a session that owns its title; unknown tools never', () => {
    expect(refusal('set_task_title_kandev', config('kanban_task', { ownsTaskTitle: true }))).toBeUndefined();
    expect(refusal('set_task_title_kandev', config('office_task', { ownsTaskTitle: true }))).toBeUndefined();
    expect(refusal('set_task_title_kandev', config('kanban_task'))).toBe('permission_denied');
    expect(refusal('drop_database_kandev', config('kanban_task', { ownsTaskTitle: true }))).toBe('not_found');
  });

  test('provider tools only on the kanban surface with the provider in the session config', () => {
    const github: Provider[] = ['github'];
    expect(refusal('update_task_pr_automation_kandev', config('kanban_task', { providers: github }))).toBeUndefined();
    expect(refusal('update_task_pr_automation_kandev', config('office_task', { providers: github }))).toBe(
      'permission_denied',
    );
    expect(refusal('update_task_mr_automation_kandev', config('kanban_task', { providers: github }))).toBe(
      'permission_denied',
    );
  });

  test('a question tool only with its capability: a child launched as a root is refused', () => {
    expect(refusal('ask_parent_question_kandev', config('kanban_task', { questionCapability: 'none' }))).toBe(
      'permission_denied',
    );
    expect(refusal('ask_user_question_kandev', config('kanban_task', { questionCapability: 'parent' }))).toBe(
      'permission_denied',
    );
    expect(
      refusal('ask_parent_question_kandev', config('office_task', { questionCapability: 'parent' })),
    ).toBeUndefined();
  });

  test('the refusal says what the session is and how to get new tools', () => {
    expect(() =>
      assertToolServed('ask_parent_question_kandev', config('kanban_task', { questionCapability: 'none' })),
    ).toThrow(
      /not served to this session \(surface kanban_task, question capability none, .*a resume rebuilds its tools/,
    );
  });
});
