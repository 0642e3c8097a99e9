import type { WorkClaims } from './leases';
import { commitHooksOver, InProcessReplicaSignals } from './replica-signals';
import type { Replicas } from './replicas';
import { SharedReplicas } from './shared-replicas';
import { SingleProcess } from './single-process';

const TIMING = { ttlMs: 10_000, renewMs: 3_000 };
const ANSWERED = {
  ...{ type: 'question.answered' as const, taskId: 't', sessionId: null },
  ...{ data: { question: { id: 'q1' } }, at: '2026-12-05T00:00:00.000Z' },
};

/** Leases where `taken` names are held by another replica; every call recorded. */
function fakeLeases(taken: readonly string[] = []) {
  const calls: string[] = [];
  const leases: WorkClaims = {
    replicaId: 'r1',
    claim: (name, ttlMs) => {
      calls.push(`claim ${name} ${ttlMs}`);
      return Promise.resolve(!taken.includes(name));
    },
    claimMany: (names) => Promise.resolve(new Set(names.filter((name) => !taken.includes(name)))),
    release: (name) => {
      calls.push(`release ${name}`);
      return Promise.resolve();
    },
    renew: (name, ttlMs) => {
      calls.push(`renew ${name} ${ttlMs}`);
      return Promise.resolve(!taken.includes(name));
    },
    releaseAll: () => Promise.resolve(),
    deleteExpired: () => Promise.resolve(0),
  };
  return { leases, calls };
}

describe('SingleProcess: the replica port of a backend alone on its database', () => {
  const replicas: Replicas = new SingleProcess('only', { timing: TIMING });

  test('grants every claim at once and shares nothing', async () => {
    expect(replicas.shared).toBe(false);
    await expect(replicas.claim('attach:x', 1)).resolves.toBe(true);
    await expect(replicas.claimMany(['drain:a', 'turns:b'], 1)).resolves.toEqual(new Set(['drain:a', 'turns:b']));
    await expect(replicas.release('attach:x')).resolves.toBeUndefined();
    await expect(replicas.releaseAll()).resolves.toBeUndefined();
  });

  test('once runs the work at once, passes its failure on, and never hands out a release', async () => {
    const releaseAfter = jest.fn();
    let started = false;
    const outcome = replicas.once('launch:s', () => Promise.resolve((started = true)), { releaseAfter });
    expect(started).toBe(true); // called in the same tick, as when there was no claim at all
    await expect(outcome).resolves.toEqual({ ran: true, value: true });
    await expect(replicas.once('drain:s', () => Promise.reject(new Error('agentctl failed')))).rejects.toThrow(
      'agentctl failed',
    );
    expect(releaseAfter).not.toHaveBeenCalled();
  });

  test('signals no other replica: nothing goes with a COMMIT, and only this process is alive', async () => {
    const trx = {} as Parameters<Replicas['notifyStatement']>[0];
    expect(replicas.notifyStatement(trx, [{ name: 'question', payload: 'q1' }])).toBeUndefined();
    expect(commitHooksOver(replicas).beforeCommit(trx, [ANSWERED])).toBeUndefined();
    await expect(replicas.isAlive('another')).resolves.toBe(false);
    await expect(replicas.alive()).resolves.toEqual(['only']);
    // Its own listeners still hear its own commits (the event streams and held questions of this process).
    const heard: string[] = [];
    replicas.subscribe('question', { signal: (id) => heard.push(id), resync: () => undefined });
    commitHooksOver(replicas).afterCommit([ANSWERED]);
    expect(heard).toEqual(['q1']);
  });

  test('never sweeps', async () => {
    jest.useFakeTimers();
    try {
      const sweep = jest.fn(() => Promise.resolve());
      const sweeps = replicas.sweepLeftovers(sweep);
      jest.advanceTimersByTime(100 * TIMING.renewMs);
      await sweeps.stop();
      expect(sweep).not.toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('SharedReplicas: the replica port of backends sharing a database', () => {
  test('once claims the name for the lease TTL (or the TTL asked), runs the work, releases it', async () => {
    const { leases, calls } = fakeLeases(['drain:held']);
    const replicas = new SharedReplicas({ leases, signals: new InProcessReplicaSignals('r1'), timing: TIMING });
    expect(replicas.shared).toBe(true);
    await expect(replicas.once('drain:s', () => Promise.resolve('sent'))).resolves.toEqual({
      ran: true,
      value: 'sent',
    });
    const work = jest.fn(() => Promise.resolve());
    await expect(replicas.once('drain:held', work)).resolves.toEqual({ ran: false });
    expect(work).not.toHaveBeenCalled();
    const released: (() => Promise<void>)[] = [];
    await replicas.once('launch:s', () => Promise.resolve(), { ttlMs: 60_000, releaseAfter: (r) => released.push(r) });
    expect(calls).toEqual(['claim drain:s 10000', 'release drain:s', 'claim drain:held 10000', 'claim launch:s 60000']);
    await released[0]?.();
    expect(calls.at(-1)).toBe('release launch:s');
  });

  test('renewWhileHeld: the claim is renewed every renew interval until its release, never after', async () => {
    jest.useFakeTimers();
    try {
      const { leases, calls } = fakeLeases();
      const replicas = new SharedReplicas({ leases, signals: new InProcessReplicaSignals('r1'), timing: TIMING });
      const released: (() => Promise<void>)[] = [];
      await replicas.once('launch:s', () => Promise.resolve(), {
        renewWhileHeld: true,
        releaseAfter: (release) => released.push(release),
      });
      await jest.advanceTimersByTimeAsync(2 * TIMING.renewMs);
      expect(calls).toEqual(['claim launch:s 10000', 'renew launch:s 10000', 'renew launch:s 10000']);
      await released[0]?.();
      await jest.advanceTimersByTimeAsync(5 * TIMING.renewMs);
      expect(calls.slice(3)).toEqual(['release launch:s']);
    } finally {
      jest.useRealTimers();
    }
  });

  test('sweeps every renew interval, one sweep at a time, until stopped', async () => {
    jest.useFakeTimers();
    try {
      const replicas = new SharedReplicas({
        ...fakeLeases(),
        signals: new InProcessReplicaSignals('r1'),
        timing: TIMING,
      });
      let finish: () => void = () => undefined;
      const sweep = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
      const sweeps = replicas.sweepLeftovers(sweep);
      jest.advanceTimersByTime(TIMING.renewMs - 1);
      expect(sweep).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      await Promise.resolve();
      expect(sweep).toHaveBeenCalledTimes(1);
      jest.advanceTimersByTime(TIMING.renewMs); // the first sweep is still running: the next one waits
      await Promise.resolve();
      expect(sweep).toHaveBeenCalledTimes(1);
      finish();
      const stopped = sweeps.stop(); // waits for the queued sweep, starts no more
      await jest.advanceTimersByTimeAsync(0);
      finish();
      await stopped;
      expect(sweep).toHaveBeenCalledTimes(2);
      jest.advanceTimersByTime(10 * TIMING.renewMs);
      expect(sweep).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });

  test('refuses leases and signals of two different replicas', () => {
    const { leases } = fakeLeases();
    expect(() => new SharedReplicas({ leases, signals: new InProcessReplicaSignals('r2'), timing: TIMING })).toThrow(
      'one replica',
    );
  });
});
