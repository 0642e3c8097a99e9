import { SentWrites } from './sent-writes';

/** A promise settled from outside. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('SentWrites', () => {
  test('settles once every answer came, when none failed', async () => {
    const writes = new SentWrites();
    const late = deferred<void>();
    writes.track(Promise.resolve());
    writes.track(late.promise);
    let settled = false;
    const settling = writes.settle().then(() => (settled = true));
    // Barrier: every promise job queued so far has run; the late answer still holds it back.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    late.resolve();
    await settling;
    expect(settled).toBe(true);
  });

  test('throws the first failure to answer, only once every answer came', async () => {
    const writes = new SentWrites();
    const first = deferred<void>();
    const second = deferred<void>();
    writes.track(first.promise);
    writes.track(second.promise);
    const outcome = writes.settle().catch((error: unknown) => error);
    first.reject(new Error('first'));
    await new Promise((resolve) => setImmediate(resolve));
    second.reject(new Error('second'));
    expect(await outcome).toEqual(new Error('first'));
  });

  test('holds a failure until settle: no unhandled rejection in between', async () => {
    const writes = new SentWrites();
    writes.track(Promise.reject(new Error('refused')));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(writes.settle()).rejects.toThrow('refused');
  });
});
