import { choosePermission } from './permission-policy';

const option = (optionId: string, kind: string) => ({ optionId, kind });

describe('choosePermission', () => {
  test.each([
    [
      'allow_once wins, wherever it is',
      [option('r', 'reject_once'), option('a', 'allow_always'), option('o', 'allow_once')],
      { outcome: 'selected', optionId: 'o' },
    ],
    [
      'the first allow_once of several',
      [option('o1', 'allow_once'), option('o2', 'allow_once')],
      { outcome: 'selected', optionId: 'o1' },
    ],
    [
      'allow_always when there is no allow_once',
      [option('r', 'reject_always'), option('a', 'allow_always')],
      { outcome: 'selected', optionId: 'a' },
    ],
    [
      'only reject options: cancelled',
      [option('r1', 'reject_once'), option('r2', 'reject_always')],
      { outcome: 'cancelled' },
    ],
    ['no options: cancelled', [], { outcome: 'cancelled' }],
    ['unknown kinds are never chosen', [option('x', 'allow_forever')], { outcome: 'cancelled' }],
  ])('%s', (_name, options, expected) => {
    expect(choosePermission(options)).toEqual(expected);
  });
});
