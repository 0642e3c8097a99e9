import { settleAll } from './sent-writes';

/** A promise settled from outside. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('settleAll', () => {
  test('answers every value, in argument order', async () => {
    await expect(settleAll(Promise.resolve(1), Promise.resolve('two'))).resolves.toEqual([1, 'two']);
  });

  test('throws the first failure in argument order, only once every piece settled', async () => {
    const late = deferred<string>();
    let settled = false;
    const outcome = settleAll(
      Promise.resolve(0),
      late.promise.then(() => Promise.reject(new Error('second'))),
      Promise.reject(new Error('third')),
    ).then(
      () => undefined,
      (error: unknown) => {
        settled = true;
        return error;
      },
    );
    // Barrier: every promise job queued so far has run; the late piece still holds the answer back.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    late.resolve('now');
    expect(await outcome).toEqual(new Error('second'));
  });
});
