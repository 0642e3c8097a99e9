import fc from 'fast-check';
import { ERROR_CODES, normalizeProviderSet, PROVIDERS, type Provider } from '@kandev/protocol';
import {
  compareHeldRevision,
  decideProviderRefresh,
  pushFailureKind,
  type SessionRefreshResult,
  type SessionRefreshStatus,
  summarizeRefresh,
} from './provider-refresh';

const providersArb = fc.subarray([...PROVIDERS]);

describe('decideProviderRefresh', () => {
  test.each<[Provider[], Provider[], ReturnType<typeof decideProviderRefresh>]>([
    [['github'], ['github', 'gitlab'], { kind: 'bump', revision: 8, providers: ['github', 'gitlab'] }],
    [['github', 'gitlab'], ['gitlab'], { kind: 'bump', revision: 8, providers: ['gitlab'] }],
    [['github'], ['github'], { kind: 'not_needed' }],
    [['gitlab', 'github'], ['github', 'gitlab'], { kind: 'not_needed' }],
    [[], [], { kind: 'not_needed' }],
  ])('%j at revision 7 -> %j: %j', (current, derived, expected) => {
    expect(decideProviderRefresh({ revision: 7, providers: current }, derived)).toEqual(expected);
  });

  test('bumps by exactly one iff the set changes, and the bumped set is the normalised derived set', () => {
    fc.assert(
      fc.property(providersArb, providersArb, fc.integer({ min: 1, max: 1e9 }), (current, derived, revision) => {
        const decision = decideProviderRefresh({ revision, providers: current }, derived);
        const changed = normalizeProviderSet(current).join() !== normalizeProviderSet(derived).join();
        expect(decision.kind).toBe(changed ? 'bump' : 'not_needed');
        if (decision.kind === 'bump') {
          expect(decision).toEqual({ kind: 'bump', revision: revision + 1, providers: normalizeProviderSet(derived) });
        }
      }),
    );
  });
});

describe('summarizeRefresh', () => {
  const result = (status: SessionRefreshStatus): SessionRefreshResult => ({ sessionId: 's', status, revision: 1 });
  test.each<[SessionRefreshStatus[], string]>([
    [[], 'not_needed'],
    [['not_needed', 'not_needed'], 'not_needed'],
    [['applied', 'not_needed'], 'applied'],
    [['failed'], 'failed'],
    [['failed', 'not_needed'], 'failed'],
    [['applied', 'failed'], 'partial'],
    [['dispatched', 'not_needed'], 'dispatched'],
    [['applied', 'dispatched'], 'dispatched'],
    [['dispatched', 'failed'], 'partial'],
  ])('%j -> %s', (statuses, expected) => {
    expect(summarizeRefresh(statuses.map(result)).status).toBe(expected);
  });
});

describe('compareHeldRevision', () => {
  test.each([
    [1, 2, 'behind'],
    [2, 2, 'current'],
    [3, 2, 'ahead'],
  ] as const)('agentctl %i vs desired %i: %s', (held, desired, expected) => {
    expect(compareHeldRevision(held, desired)).toBe(expected);
  });
});

describe('pushFailureKind', () => {
  test('only a lost session, a refusal or a bad request stop retries', () => {
    const kinds = Object.fromEntries(ERROR_CODES.map((code) => [code, pushFailureKind(code)]));
    expect(kinds).toEqual({
      invalid_argument: 'conflict',
      not_found: 'lost',
      already_exists: 'retry',
      failed_precondition: 'conflict',
      unauthenticated: 'retry',
      permission_denied: 'retry',
      unavailable: 'retry',
      deadline_exceeded: 'retry',
      internal: 'retry',
    });
  });
});
