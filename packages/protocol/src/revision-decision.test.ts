import fc from 'fast-check';
import { AppError } from './errors';
import { decideRevision, providerSetRevision, type Revisioned } from './revision-decision';
import type { UpdateOutcome } from './update-outcome';

const at = (revision: number, content = 'content-a'): Revisioned => ({ revision, content: () => content });
/** A revision whose content must not be looked at (it may serialise a whole config). */
const unread = (revision: number): Revisioned => ({
  revision,
  content: (): string => {
    throw new Error('content computed');
  },
});

describe('decideRevision', () => {
  test.each([
    ['higher revision: applied', at(5), at(6, 'content-b'), 'applied'],
    ['higher revision with the same content: applied', at(5), at(6), 'applied'],
    ['same revision, same content: unchanged (replay)', at(5), at(5), 'unchanged'],
    ['lower revision: stale', at(5), at(4), 'stale'],
    ['lower revision with other content: stale', at(5), at(4, 'content-b'), 'stale'],
    ['higher revision: neither content is read', unread(5), unread(6), 'applied'],
    ['lower revision: neither content is read', unread(5), unread(4), 'stale'],
  ] as const)('%s', (_name, current, incoming, expected) => {
    expect(decideRevision('s1', current, incoming)).toBe(expected);
  });

  test('same revision with other content: failed_precondition, naming the revision held', () => {
    const call = () => decideRevision('s1', at(3), at(3, 'content-b'));
    expect(call).toThrow(AppError);
    expect(call).toThrow('session s1 already holds different content at revision 3; send a higher revision');
    expect(call).toThrow(expect.objectContaining({ code: 'failed_precondition' }) as Error);
  });
});

describe('providerSetRevision', () => {
  test('a set is its content: order and repeats do not matter, membership does', () => {
    const held = providerSetRevision({ revision: 4, providers: ['github', 'gitlab'] });
    const same = providerSetRevision({ revision: 4, providers: ['gitlab', 'github', 'gitlab'] });
    expect(decideRevision('s1', held, same)).toBe('unchanged');
    const other = providerSetRevision({ revision: 4, providers: ['gitlab'] });
    expect(() => decideRevision('s1', held, other)).toThrow(/different content at revision 4/);
  });
});

/** A session as a sequence of updates leaves it: each applied with the rule, a refused one skipped. */
function replay(start: Revisioned, updates: readonly Revisioned[]) {
  let held = start;
  const outcomes: (UpdateOutcome | 'refused')[] = [];
  for (const update of updates) {
    try {
      const outcome = decideRevision('s', held, update);
      if (outcome === 'applied') held = update;
      outcomes.push(outcome);
    } catch {
      outcomes.push('refused');
    }
  }
  return { held, outcomes };
}

const revisionArb = fc.record({ revision: fc.integer({ min: 0, max: 20 }), content: fc.constantFrom('a', 'b', 'c') });
const updatesArb = fc.array(revisionArb, { maxLength: 12 });
const asRevisioned = ({ revision, content }: { revision: number; content: string }): Revisioned =>
  at(revision, content);

describe('decideRevision properties', () => {
  test('applied exactly when the revision is higher; stale exactly when lower', () => {
    fc.assert(
      fc.property(revisionArb, revisionArb, (current, incoming) => {
        const decide = () => decideRevision('s', asRevisioned(current), asRevisioned(incoming));
        if (incoming.revision > current.revision) expect(decide()).toBe('applied');
        else if (incoming.revision < current.revision) expect(decide()).toBe('stale');
        else if (incoming.content === current.content) expect(decide()).toBe('unchanged');
        else expect(decide).toThrow(expect.objectContaining({ code: 'failed_precondition' }) as Error);
      }),
    );
  });

  test('never regresses: after any sequence the session holds the highest revision it was sent', () => {
    fc.assert(
      fc.property(revisionArb, updatesArb, (start, updates) => {
        const { held } = replay(asRevisioned(start), updates.map(asRevisioned));
        expect(held.revision).toBe(Math.max(start.revision, ...updates.map((u) => u.revision)));
      }),
    );
  });

  test('idempotent: an update sent again right after it was applied is unchanged, and changes nothing', () => {
    fc.assert(
      fc.property(revisionArb, updatesArb, (start, updates) => {
        const once = replay(asRevisioned(start), updates.map(asRevisioned));
        const doubled = replay(asRevisioned(start), updates.flatMap((u) => [u, u]).map(asRevisioned));
        expect(doubled.held.revision).toBe(once.held.revision);
        expect(doubled.held.content()).toBe(once.held.content());
        // Each repeat of an applied (or unchanged) update is answered unchanged.
        once.outcomes.forEach((outcome, i) => {
          if (outcome === 'applied' || outcome === 'unchanged') expect(doubled.outcomes[2 * i + 1]).toBe('unchanged');
        });
      }),
    );
  });
});
