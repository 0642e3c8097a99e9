import fc from 'fast-check';
import type { CheckRun, PrObservation, ReviewVerdict } from './github-api';
import { autoFixKey, autoFixReasons, mergeDecision, type MergeOutcome, rulesState } from './pr-rules';

const SHAS = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)];

function pr(overrides: Partial<PrObservation> = {}): PrObservation {
  return {
    state: 'open',
    headSha: SHAS[0]!,
    mergeable: true,
    mergeableState: 'clean',
    requestedReviewers: [],
    reviews: [],
    checks: [],
    ...overrides,
  };
}

const check = fc.record<CheckRun>({
  name: fc.constantFrom('lint', 'test', 'build'),
  status: fc.constantFrom('queued', 'in_progress', 'completed'),
  conclusion: fc.constantFrom(null, 'success', 'failure', 'neutral', 'skipped', 'timed_out', 'cancelled'),
});
const review = fc.record<ReviewVerdict>({
  login: fc.constantFrom('alice', 'bob'),
  state: fc.constantFrom('APPROVED', 'CHANGES_REQUESTED', 'DISMISSED'),
  commitId: fc.constantFrom(...SHAS),
});
const observation = fc.record<PrObservation>({
  state: fc.constantFrom('open', 'closed', 'merged'),
  headSha: fc.constantFrom(...SHAS),
  mergeable: fc.constantFrom(true, false, null),
  mergeableState: fc.constantFrom('clean', 'dirty', 'blocked'),
  requestedReviewers: fc.constant([]),
  reviews: fc.array(review, { maxLength: 3 }),
  checks: fc.array(check, { maxLength: 4 }),
});

describe('PR lifecycle rules', () => {
  test('a PR open is the transition rules opened; merged and closed are theirs too', () => {
    expect([rulesState('open'), rulesState('merged'), rulesState('closed')]).toEqual(['opened', 'merged', 'closed']);
  });

  test('auto-fix: failed checks and changes requested on the head; stale reviews and closed PRs do not count', () => {
    const failed = pr({ checks: [{ name: 'test', status: 'completed', conclusion: 'failure' }] });
    expect(autoFixReasons(failed)).toEqual(['check runs failed: test']);
    const stale = pr({ reviews: [{ login: 'alice', state: 'CHANGES_REQUESTED', commitId: SHAS[1]! }] });
    expect(autoFixReasons(stale)).toEqual([]);
    const current = pr({ reviews: [{ login: 'alice', state: 'CHANGES_REQUESTED', commitId: SHAS[0]! }] });
    expect(autoFixReasons(current)).toEqual(['changes requested by alice']);
    expect(autoFixReasons({ ...failed, state: 'closed' })).toEqual([]);
  });

  test('property: fix prompts over any read sequence are exactly one per head commit that needed one', () => {
    fc.assert(
      fc.property(fc.array(observation, { maxLength: 25 }), (reads) => {
        const keys = new Set<string>();
        const queued: string[] = [];
        for (const read of reads) {
          if (autoFixReasons(read).length === 0) continue;
          const key = autoFixKey('link', read.headSha);
          if (!keys.has(key)) queued.push(read.headSha); // what the unique coalescing key lets through
          keys.add(key);
        }
        const needing = new Set(reads.filter((r) => autoFixReasons(r).length > 0).map((r) => r.headSha));
        expect(queued.sort()).toEqual([...needing].sort());
      }),
    );
  });

  test('auto-merge: merges only an open, mergeable PR whose checks all completed and passed', () => {
    fc.assert(
      fc.property(observation, (read) => {
        const decision = mergeDecision(read, null);
        if (decision.action !== 'merge') return;
        expect(read.state).toBe('open');
        expect(read.mergeable).toBe(true);
        for (const c of read.checks ?? []) {
          expect(c.status).toBe('completed');
          expect(['success', 'neutral', 'skipped']).toContain(c.conclusion);
        }
        expect((read.reviews ?? []).some((r) => r.state === 'CHANGES_REQUESTED' && r.commitId === read.headSha)).toBe(
          false,
        );
      }),
    );
  });

  test('auto-merge: null mergeability waits, false is a refusal; a GitHub refusal is not retried for that head', () => {
    expect(mergeDecision(pr({ mergeable: null }), null)).toMatchObject({ action: 'waiting' });
    expect(mergeDecision(pr({ mergeable: false, mergeableState: 'dirty' }), null)).toEqual({
      action: 'refused',
      reason: 'not mergeable (mergeable_state: dirty)',
    });
    const refused: MergeOutcome = { at: 'x', head_sha: SHAS[0]!, result: 'refused', reason: '405', by_github: true };
    expect(mergeDecision(pr(), refused)).toEqual({ action: 'none' });
    expect(mergeDecision(pr({ headSha: SHAS[1]! }), refused)).toEqual({ action: 'merge' });
    expect(mergeDecision(pr({ checks: null }), null)).toEqual({ action: 'none' });
  });
});
