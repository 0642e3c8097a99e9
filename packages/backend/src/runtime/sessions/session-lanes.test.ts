import { SessionLanes } from './session-lanes';

/** A promise the test settles by hand. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('SessionLanes', () => {
  test('work on one session runs in order, one at a time, also after a failure', async () => {
    const lanes = new SessionLanes();
    const log: string[] = [];
    const gate = deferred();
    const first = lanes.run('s', async () => {
      log.push('first start');
      await gate.promise;
      log.push('first end');
      throw new Error('boom');
    });
    const second = lanes.run('s', () => {
      log.push('second');
      return Promise.resolve(2);
    });
    await Promise.resolve();
    expect(log).toEqual(['first start']);
    gate.resolve();
    await expect(first).rejects.toThrow('boom');
    await expect(second).resolves.toBe(2);
    expect(log).toEqual(['first start', 'first end', 'second']);
  });

  test('different sessions do not wait for each other', async () => {
    const lanes = new SessionLanes();
    const gate = deferred();
    const blocked = lanes.run('a', () => gate.promise);
    await expect(lanes.run('b', () => Promise.resolve('b ran'))).resolves.toBe('b ran');
    gate.resolve();
    await blocked;
  });

  test('work queued from inside a lane runs after the current work; idle waits for all of it', async () => {
    const lanes = new SessionLanes();
    const log: string[] = [];
    await lanes.run('s', () => {
      void lanes.run('s', () => Promise.resolve(void log.push('queued from inside')));
      log.push('outer');
      return Promise.resolve();
    });
    await lanes.idle();
    expect(log).toEqual(['outer', 'queued from inside']);
  });
});
