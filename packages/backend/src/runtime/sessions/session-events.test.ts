import fc from 'fast-check';
import { toolListDiff } from './session-events';

const names = fc.array(fc.constantFrom('a_kandev', 'b_kandev', 'c_kandev', 'd_kandev', 'e_kandev'), { maxLength: 8 });

describe('toolListDiff', () => {
  test('previous minus removed plus added is next; added and removed are disjoint, sorted, unique', () => {
    fc.assert(
      fc.property(names, names, (previous, next) => {
        const { added, removed } = toolListDiff(previous, next);
        const rebuilt = new Set([...previous.filter((n) => !removed.includes(n)), ...added]);
        expect([...rebuilt].sort()).toEqual([...new Set(next)].sort());
        expect(added.filter((n) => removed.includes(n))).toEqual([]);
        for (const list of [added, removed]) expect(list).toEqual([...new Set(list)].sort());
      }),
    );
  });

  test('the same list in another order changes nothing', () => {
    expect(toolListDiff(['b_kandev', 'a_kandev'], ['a_kandev', 'b_kandev'])).toEqual({ added: [], removed: [] });
  });
});
