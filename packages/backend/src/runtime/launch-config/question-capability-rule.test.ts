import fc from 'fast-check';
import { QUESTION_CAPABILITIES } from '@kandev/protocol';
import { questionCapabilityFor } from './question-capability-rule';

describe('questionCapabilityFor', () => {
  test.each([
    [false, false, 'user'],
    [false, true, 'user'],
    [true, true, 'parent'],
    [true, false, 'none'],
  ] as const)('autopilot=%s hasParent=%s -> %s', (autopilot, hasParent, expected) => {
    expect(questionCapabilityFor({ autopilot, hasParent })).toBe(expected);
  });

  test('one value from the closed set, and only autopilot tasks lose the operator', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), (autopilot, hasParent) => {
        const capability = questionCapabilityFor({ autopilot, hasParent });
        expect(QUESTION_CAPABILITIES).toContain(capability);
        expect(capability === 'user').toBe(!autopilot);
        expect(capability === 'parent').toBe(autopilot && hasParent);
        expect(capability === 'none').toBe(autopilot && !hasParent);
      }),
    );
  });
});
