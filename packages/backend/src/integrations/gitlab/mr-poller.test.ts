import { SingleProcess } from '../../platform/cluster/single-process';
import { createLogger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { MrPoller, type Timers } from './mr-poller';
import { MrUpdates } from './mr-updates';

/** Timers a test fires by hand: no real time passes. */
function manualTimers() {
  const pending: { run: () => void; ms: number; id: number }[] = [];
  let next = 0;
  const timers: Timers = {
    setTimeout: (run, ms) => {
      next += 1;
      pending.push({ run, ms, id: next });
      return next;
    },
    clearTimeout: (id) => {
      const index = pending.findIndex((p) => p.id === id);
      if (index >= 0) pending.splice(index, 1);
    },
  };
  return { timers, pending };
}

describe('MrPoller scheduling', () => {
  test('each poll waits the interval plus jitter, the next is scheduled after it finished, stop cancels', async () => {
    const { timers, pending } = manualTimers();
    let polls = 0;
    let finishPoll: () => void = () => undefined;
    const uow = {
      read: {
        mrLifecycle: {
          listPollable: () => {
            polls += 1;
            return new Promise<[]>((resolve) => (finishPoll = () => resolve([])));
          },
        },
      },
    } as unknown as UnitOfWork;
    const logger = createLogger('silent');
    const poller = new MrPoller({
      uow,
      clock: () => new Date(0),
      logger,
      gitlab: () => Promise.resolve(undefined),
      updates: new MrUpdates(logger),
      policy: { intervalMs: 1000, jitterMs: 200, concurrency: 1, backoffBaseMs: 10, backoffMaxMs: 10 },
      random: () => 0.5,
      timers,
      replicas: new SingleProcess('only'),
    });
    poller.start();
    expect(pending.map((p) => p.ms)).toEqual([1100]);
    pending.shift()!.run();
    expect(polls).toBe(1);
    expect(pending).toHaveLength(0); // no overlap: the next poll waits for this one
    finishPoll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending.map((p) => p.ms)).toEqual([1100]);
    await poller.stop();
    expect(pending).toHaveLength(0);
  });
});
