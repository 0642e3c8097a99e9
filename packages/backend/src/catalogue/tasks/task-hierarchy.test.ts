import fc from 'fast-check';
import { AppError } from '@kandev/protocol';
import { assertValidParent } from './task-hierarchy';

const rejects = (fn: () => void) => expect(fn).toThrow(AppError);

describe('assertValidParent', () => {
  const task = { id: 't', workspaceId: 'w' };

  test.each([
    ['a root parent in the same workspace', { id: 'p', workspaceId: 'w', lineage: ['p'] }],
    ['a parent with ancestors', { id: 'p', workspaceId: 'w', lineage: ['p', 'gp', 'ggp'] }],
  ])('accepts %s', (_name, candidate) => {
    expect(() => assertValidParent(task, candidate)).not.toThrow();
  });

  test('rejects the task itself', () =>
    rejects(() => assertValidParent(task, { id: 't', workspaceId: 'w', lineage: ['t'] })));
  test('rejects a descendant (cycle)', () =>
    rejects(() => assertValidParent(task, { id: 'c', workspaceId: 'w', lineage: ['c', 't', 'p'] })));
  test('rejects another workspace', () =>
    rejects(() => assertValidParent(task, { id: 'p', workspaceId: 'other', lineage: ['p'] })));
  test('a new task only needs the same workspace', () => {
    expect(() =>
      assertValidParent({ id: undefined, workspaceId: 'w' }, { id: 'p', workspaceId: 'w', lineage: ['p'] }),
    ).not.toThrow();
    rejects(() =>
      assertValidParent({ id: undefined, workspaceId: 'w' }, { id: 'p', workspaceId: 'x', lineage: ['p'] }),
    );
  });

  test('accepted exactly when the lineage avoids the task and the workspace matches', () => {
    const ids = fc.constantFrom('a', 'b', 'c', 'd', 't');
    fc.assert(
      fc.property(ids, fc.array(ids, { maxLength: 4 }), fc.boolean(), (parent, above, sameWorkspace) => {
        const lineage = [parent, ...above];
        const candidate = { id: parent, workspaceId: sameWorkspace ? 'w' : 'x', lineage };
        const ok = sameWorkspace && !lineage.includes('t');
        if (ok) expect(() => assertValidParent(task, candidate)).not.toThrow();
        else rejects(() => assertValidParent(task, candidate));
      }),
    );
  });
});
