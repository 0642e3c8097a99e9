import { describeError, exitFromSpawnError, exitFromStatus } from './agent-exit';

describe('exit reasons', () => {
  test.each([
    [3, null, { exitCode: 3, signal: null, reason: 'exited with code 3' }],
    [0, null, { exitCode: 0, signal: null, reason: 'exited with code 0' }],
    [null, 'SIGKILL', { exitCode: null, signal: 'SIGKILL', reason: 'killed by SIGKILL' }],
  ] as const)('code %s signal %s', (code, signal, expected) => {
    expect(exitFromStatus(code, signal)).toEqual(expected);
  });

  test('spawn failure', () => {
    expect(exitFromSpawnError(new Error('spawn no-such-agent ENOENT'))).toEqual({
      exitCode: null,
      signal: null,
      reason: 'could not start: spawn no-such-agent ENOENT',
    });
    expect(exitFromSpawnError(new Error('spawn node ENOENT'), '/gone').reason).toBe(
      'could not start: spawn node ENOENT (working directory /gone does not exist)',
    );
  });

  test('describeError: one line, bounded, any thrown value', () => {
    expect(describeError(new Error('bad\n  thing'))).toBe('bad thing');
    expect(describeError({ code: -32603 })).toBe('{"code":-32603}');
    expect(describeError('x'.repeat(600))).toHaveLength(501);
  });
});
