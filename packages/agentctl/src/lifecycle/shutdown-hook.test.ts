import { silentLogger } from '../testing/silent-logger';
import { installShutdownHook, type ShutdownStep } from './shutdown-hook';

function hook(steps: ShutdownStep[], timeoutMs = 1_000) {
  const exit = jest.fn<void, [number]>();
  const shutdown = installShutdownHook({ steps, timeoutMs, log: silentLogger, exit, signals: [] });
  return { exit, shutdown };
}

describe('installShutdownHook', () => {
  test('runs the steps in order, once, then exits 0', async () => {
    const order: string[] = [];
    const { exit, shutdown } = hook(
      ['health', 'mcp', 'grpc'].map((name) => ({ name, run: () => void order.push(name) })),
    );
    await Promise.all([shutdown(), shutdown()]);
    expect(order).toEqual(['health', 'mcp', 'grpc']);
    expect(exit.mock.calls).toEqual([[0]]);
  });

  test('a failing step is reported by exit 1, and later steps still run', async () => {
    const ran: string[] = [];
    const { exit, shutdown } = hook([
      {
        name: 'boom',
        run: () => {
          throw new Error('boom');
        },
      },
      { name: 'after', run: () => void ran.push('after') },
    ]);
    await shutdown();
    expect(ran).toEqual(['after']);
    expect(exit.mock.calls).toEqual([[1]]);
  });

  test('a step that never finishes is cut off by the timer: exit 1', () => {
    jest.useFakeTimers();
    try {
      const { exit, shutdown } = hook([{ name: 'hangs', run: () => new Promise<void>(() => undefined) }], 5_000);
      void shutdown();
      jest.advanceTimersByTime(4_999);
      expect(exit).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(exit.mock.calls).toEqual([[1]]);
    } finally {
      jest.useRealTimers();
    }
  });
});
