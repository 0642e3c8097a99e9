import fc from 'fast-check';
import {
  ALLOW_KINDS,
  choosePermission,
  decisionFromAnswer,
  localDecision,
  type PermissionDecision,
  REJECT_KINDS,
  rejectPermission,
} from './permission-policy';

const option = (optionId: string, kind: string) => ({ optionId, kind });

const optionArb = fc.record({
  optionId: fc.string({ minLength: 1, maxLength: 8 }),
  kind: fc.constantFrom('allow_once', 'allow_always', 'reject_once', 'reject_always', 'allow_forever', ''),
});
// ACP option ids are unique within a request (an answer names one by id).
const optionsArb = fc.uniqueArray(optionArb, { maxLength: 8, selector: (o) => o.optionId });

/** The kind of the option a decision picked (undefined: cancelled). */
function kindOf(options: readonly { optionId: string; kind: string }[], decision: PermissionDecision) {
  return decision.outcome === 'selected' ? options.find((o) => o.optionId === decision.optionId)?.kind : undefined;
}

describe('choosePermission (allow_all)', () => {
  test.each([
    [
      'allow_once wins, wherever it is',
      [option('r', 'reject_once'), option('a', 'allow_always'), option('o', 'allow_once')],
      { outcome: 'selected', optionId: 'o' },
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

describe('rejectPermission (deny_all, no answer)', () => {
  test.each([
    ['reject_once first', [option('a', 'allow_once'), option('ra', 'reject_always'), option('r', 'reject_once')], 'r'],
    ['reject_always when there is no reject_once', [option('a', 'allow_once'), option('ra', 'reject_always')], 'ra'],
  ])('%s', (_name, options, optionId) => {
    expect(rejectPermission(options)).toEqual({ outcome: 'selected', optionId });
  });

  test('only allow options: cancelled', () => {
    expect(rejectPermission([option('a', 'allow_once')])).toEqual({ outcome: 'cancelled' });
  });
});

describe('policy rules (property)', () => {
  test('deny_all never picks an allow option', () => {
    fc.assert(
      fc.property(optionsArb, (options) => {
        const kind = kindOf(options, localDecision('deny_all', options) ?? { outcome: 'cancelled' });
        expect(kind === undefined || REJECT_KINDS.includes(kind)).toBe(true);
      }),
    );
  });

  test('allow_all never picks a reject option', () => {
    fc.assert(
      fc.property(optionsArb, (options) => {
        const kind = kindOf(options, localDecision('allow_all', options) ?? { outcome: 'cancelled' });
        expect(kind === undefined || ALLOW_KINDS.includes(kind)).toBe(true);
      }),
    );
  });

  test('ask is never decided locally', () => {
    fc.assert(fc.property(optionsArb, (options) => expect(localDecision('ask', options)).toBeNull()));
  });

  test('ask without an answer (no backend, dropped, timed out) never picks an allow option', () => {
    fc.assert(
      fc.property(optionsArb, (options) => {
        const kind = kindOf(options, decisionFromAnswer(options, null));
        expect(kind === undefined || REJECT_KINDS.includes(kind)).toBe(true);
      }),
    );
  });

  test('an answer naming an option the agent never offered rejects', () => {
    fc.assert(
      fc.property(optionsArb, fc.string({ minLength: 9, maxLength: 12 }), (options, stranger) => {
        const kind = kindOf(options, decisionFromAnswer(options, stranger));
        expect(kind === undefined || REJECT_KINDS.includes(kind)).toBe(true);
      }),
    );
  });

  test('an offered option is chosen as answered', () => {
    fc.assert(
      fc.property(
        optionsArb.filter((o) => o.length > 0),
        fc.nat(),
        (options, n) => {
          const picked = options[n % options.length]!;
          expect(decisionFromAnswer(options, picked.optionId)).toEqual({
            outcome: 'selected',
            optionId: picked.optionId,
          });
        },
      ),
    );
  });
});
