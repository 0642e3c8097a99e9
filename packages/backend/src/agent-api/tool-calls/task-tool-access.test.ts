import { AppError } from '@kandev/protocol';
import { assertTargetAllowed, relationOf, type TargetScope, type TaskRelation } from './task-tool-access';

const caller = { taskId: 'me', workspaceId: 'w' };

function codeOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('relationOf', () => {
  test.each<[string, { id: string; parentId: string | null; workspaceId: string }, TaskRelation]>([
    ['the caller itself', { id: 'me', parentId: 'boss', workspaceId: 'w' }, 'self'],
    ['a direct child', { id: 'kid', parentId: 'me', workspaceId: 'w' }, 'child'],
    ['a grandchild', { id: 'grandkid', parentId: 'kid', workspaceId: 'w' }, 'workspace'],
    ['a sibling', { id: 'sib', parentId: 'boss', workspaceId: 'w' }, 'workspace'],
    ['the parent', { id: 'boss', parentId: null, workspaceId: 'w' }, 'workspace'],
    ['another workspace, even "as a child"', { id: 'x', parentId: 'me', workspaceId: 'other' }, 'foreign'],
  ])('%s', (_name, target, relation) => {
    expect(relationOf(caller, target)).toBe(relation);
  });
});

describe('assertTargetAllowed', () => {
  const relations: TaskRelation[] = ['self', 'child', 'workspace', 'foreign'];
  test.each<[TargetScope, TaskRelation[]]>([
    ['own', ['self']],
    ['own_or_child', ['self', 'child']],
    ['child', ['child']],
    ['workspace', ['self', 'child', 'workspace']],
  ])('%s allows exactly %j; the rest is permission_denied', (scope, allowed) => {
    for (const relation of relations) {
      const code = codeOf(() => assertTargetAllowed('tool_kandev', scope, relation, 't'));
      expect({ relation, code }).toEqual({
        relation,
        code: allowed.includes(relation) ? undefined : 'permission_denied',
      });
    }
  });

  test('the refusal is one line naming the tool, the rule and the target', () => {
    expect(() => assertTargetAllowed('stop_task_kandev', 'child', 'workspace', 't9')).toThrow(
      'stop_task_kandev acts on your direct subtasks only; task t9 is not your task nor a direct subtask of yours',
    );
  });
});
