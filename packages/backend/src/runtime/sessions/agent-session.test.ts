import { LaunchSessionBodySchema } from './agent-session';

describe('LaunchSessionBodySchema', () => {
  test('defaults: kanban task surface, does not own the title', () => {
    expect(LaunchSessionBodySchema.parse({})).toEqual({ surface: 'kanban_task', owns_task_title: false });
  });

  test.each([
    { surface: 'office' },
    { surface: 'SURFACE_KANBAN_TASK' },
    { owns_task_title: 'yes' },
    { question_capability: 'none' },
    { providers: ['github'] },
  ])('rejects %j', (body) => {
    expect(LaunchSessionBodySchema.safeParse(body).success).toBe(false);
  });
});
