import {
  type Provider,
  type QuestionCapability,
  selectTools,
  type Surface,
  TOOL_GROUPS,
  type ToolContext,
} from '@kandev/protocol';
import { ToolSetCache, toolListChanged } from './tool-set-cache';

const ctx = (surface: Surface, questionCapability: QuestionCapability, providers: Provider[]): ToolContext => ({
  surface,
  questionCapability,
  providers: new Set(providers),
  ownsTaskTitle: false,
});

describe('ToolSetCache', () => {
  test('the list result matches the selection, in table order, with strict JSON Schemas', () => {
    const context = ctx('kanban_task', 'user', ['github']);
    const set = new ToolSetCache().resolve(context);
    const listed = set.listResult.tools;
    expect(listed.map((tool) => tool.name)).toEqual(selectTools(context).map((tool) => tool.name));
    expect(set.names).toEqual(listed.map((tool) => tool.name).sort());
    for (const tool of listed) {
      expect({ name: tool.name, type: tool.inputSchema.type, extra: tool.inputSchema.additionalProperties }).toEqual({
        name: tool.name,
        type: 'object',
        extra: false,
      });
      expect(tool.inputSchema).not.toHaveProperty('$schema');
      expect(tool.description?.length).toBeGreaterThan(40);
    }
  });

  test('contexts enabling the same groups share one precomputed set', () => {
    const cache = new ToolSetCache();
    const a = cache.resolve(ctx('office_task', 'user', ['github']));
    const b = cache.resolve(ctx('office_task', 'user', ['gitlab']));
    const c = cache.resolve(ctx('office_task', 'user', []));
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(a.listResult).toBe(c.listResult);
    expect(cache.size).toBe(1);
    expect(toolListChanged(a, c)).toBe(false);
  });

  test('different group sets get different sets, and a change is detected', () => {
    const cache = new ToolSetCache();
    const before = cache.resolve(ctx('kanban_task', 'none', []));
    const after = cache.resolve(ctx('kanban_task', 'none', ['gitlab']));
    expect(before.key).toBe('kanban-core');
    expect(after.key).toBe('kanban-core+gitlab-mr');
    expect(toolListChanged(before, after)).toBe(true);
    expect(after.find('update_task_mr_automation_kandev')?.name).toBe('update_task_mr_automation_kandev');
    expect(before.find('update_task_mr_automation_kandev')).toBeUndefined();
  });

  test('a table that enables one tool twice is rejected when built', () => {
    const kanban = TOOL_GROUPS[0];
    const doubled = [kanban, { ...kanban, name: 'copy' }];
    expect(() => new ToolSetCache(doubled).resolve(ctx('kanban_task', 'none', []))).toThrow(/enabled twice/);
  });
});
