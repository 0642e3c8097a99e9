import { AppError } from '@kandev/protocol';
import { type LinkTarget, parseMrUpdate, parsePrUpdate, pickTargets } from './review-automation';

const codeOf = (work: () => unknown): string | undefined => {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
};

describe('update tool arguments', () => {
  test.each([
    [{ auto_fix_enabled: true }, { target: { kind: 'all' }, patch: { auto_fix_enabled: true } }],
    [
      { repository_id: 'r', pr_number: 3, prompt_on_closed: false, auto_merge_enabled: true },
      {
        target: { kind: 'one', repositoryId: 'r', number: 3 },
        patch: { prompt_on_closed: false, auto_merge_enabled: true },
      },
    ],
  ])('PR %j', (args, expected) => {
    expect(parsePrUpdate(args)).toEqual(expected);
  });

  test('MR identity is repository_id + mr_iid', () => {
    expect(parseMrUpdate({ repository_id: 'r', mr_iid: 4, prompt_on_merged: true })).toEqual({
      target: { kind: 'one', repositoryId: 'r', number: 4 },
      patch: { prompt_on_merged: true },
    });
  });

  test.each([
    ['no switch', {}],
    ['identity without a switch', { repository_id: 'r', pr_number: 1 }],
    ['repository_id alone', { repository_id: 'r', auto_fix_enabled: true }],
    ['pr_number alone', { pr_number: 1, auto_fix_enabled: true }],
    ['unknown property', { auto_fix_enabled: true, task_id: 't' }],
    ['MR field on the PR tool', { mr_iid: 1, repository_id: 'r', auto_fix_enabled: true }],
    ['non-integer number', { repository_id: 'r', pr_number: 1.5, auto_fix_enabled: true }],
    ['null switch', { auto_fix_enabled: null }],
    ['not an object', 'auto_fix_enabled'],
  ])('PR refuses %s', (_name, args) => {
    expect(codeOf(() => parsePrUpdate(args))).toBe('invalid_argument');
  });
});

describe('pickTargets', () => {
  const links = [
    { id: 'a', repositoryId: 'r1', n: 1 },
    { id: 'b', repositoryId: 'r1', n: 2 },
    { id: 'c', repositoryId: 'r2', n: 1 },
  ];
  const pick = (target: LinkTarget, usable: string[]) =>
    pickTargets('github', target, links, (l) => l.n, new Set(usable)).map((l) => l.id);

  test('an identity picks exactly that link', () => {
    expect(pick({ kind: 'one', repositoryId: 'r1', number: 2 }, ['r1', 'r2'])).toEqual(['b']);
    expect(pick({ kind: 'one', repositoryId: 'r2', number: 1 }, ['r1', 'r2'])).toEqual(['c']);
  });

  test('without an identity: every link on a still-attached repository', () => {
    expect(pick({ kind: 'all' }, ['r1', 'r2'])).toEqual(['a', 'b', 'c']);
    expect(pick({ kind: 'all' }, ['r2'])).toEqual(['c']);
  });

  test('refusals: unknown link, detached repository, nothing linked', () => {
    expect(codeOf(() => pick({ kind: 'one', repositoryId: 'r2', number: 2 }, ['r1', 'r2']))).toBe('not_found');
    expect(codeOf(() => pick({ kind: 'one', repositoryId: 'r1', number: 1 }, ['r2']))).toBe('failed_precondition');
    expect(codeOf(() => pick({ kind: 'all' }, []))).toBe('failed_precondition');
  });
});
