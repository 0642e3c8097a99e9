import fc from 'fast-check';
import { canRelease, claim, holderAt, type Lease, renew } from './lease-rules';
import { attachedAgentctlOf, attachLeaseName } from './attach-lease';

// Random interleavings of claims, renewals, releases and the clock moving on, by several replicas, over
// a few names: a name never has two holders at one instant, a holder keeps it until it expires or lets
// go, and a free name is granted to whoever claims it.

type Step =
  { kind: 'claim' | 'renew' | 'release'; replica: string; name: string; ttlMs: number } | { kind: 'tick'; ms: number };

const REPLICAS = ['a', 'b', 'c'];
const NAMES = ['drain:s1', 'attach:127.0.0.1:7421'];

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('claim' as const, 'renew' as const, 'release' as const),
    replica: fc.constantFrom(...REPLICAS),
    name: fc.constantFrom(...NAMES),
    ttlMs: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 120 }) }),
);

/** Who each replica believes it holds, and until when (its own view, as a replica would keep it). */
type Beliefs = Map<string, number>;

describe('lease rules', () => {
  it('a name has at most one holder at any instant, whatever the interleaving', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        const leases = new Map<string, Lease>();
        const beliefs = new Map<string, Beliefs>(REPLICAS.map((r) => [r, new Map()]));
        let now = 0;
        for (const step of steps) {
          if (step.kind === 'tick') {
            now += step.ms;
          } else {
            const current = leases.get(step.name);
            const mine = beliefs.get(step.replica)!;
            if (step.kind === 'release') {
              if (canRelease(current, step.replica)) leases.delete(step.name);
              mine.delete(step.name);
            } else {
              const next =
                step.kind === 'claim'
                  ? claim(current, step.name, step.replica, now, step.ttlMs)
                  : renew(current, step.replica, now, step.ttlMs);
              if (next !== null) {
                leases.set(step.name, next);
                mine.set(step.name, next.expiresAtMs);
              }
              // A refused claim by a free name's would-be holder cannot happen.
              if (step.kind === 'claim' && holderAt(current, now) === undefined) expect(next).not.toBeNull();
            }
          }
          // Every replica that believes it holds a name (its grant has not expired) is the one holder.
          for (const name of NAMES) {
            const believers = REPLICAS.filter((r) => (beliefs.get(r)!.get(name) ?? -1) > now);
            expect(believers.length).toBeLessThanOrEqual(1);
            if (believers.length === 1) expect(holderAt(leases.get(name), now)).toBe(believers[0]);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a renewal extends only a lease its owner still holds', () => {
    const held = claim(undefined, 'n', 'a', 0, 10)!;
    expect(renew(held, 'a', 5, 10)).toEqual({ name: 'n', owner: 'a', expiresAtMs: 15 });
    expect(renew(held, 'b', 5, 10)).toBeNull();
    expect(renew(held, 'a', 10, 10)).toBeNull(); // expired at 10: claim again instead
    expect(claim(held, 'n', 'b', 10, 10)).toEqual({ name: 'n', owner: 'b', expiresAtMs: 20 });
    expect(claim(held, 'n', 'b', 9, 10)).toBeNull();
  });
});

describe('Attach lease names', () => {
  test.each([
    ['127.0.0.1:7421', { grpcAddress: '127.0.0.1:7421', localTo: null }],
    ['127.0.0.1:7421@replica-a', { grpcAddress: '127.0.0.1:7421', localTo: 'replica-a' }],
    ['[::1]:7421@r', { grpcAddress: '[::1]:7421', localTo: 'r' }],
  ])('%s reads back as its agentctl', (key, expected) => {
    expect(attachLeaseName(key)).toBe(`attach:${key}`);
    expect(attachedAgentctlOf(attachLeaseName(key))).toEqual(expected);
  });
});
