import type { Response } from 'express';
import type { TokenRevocationSignals } from '../auth/api-token-service';
import { StreamCredentials } from './stream-credentials';

type Listener = Parameters<TokenRevocationSignals['subscribe']>[1];

/** A response authenticated with `token`, as the auth middleware leaves it. */
const opened = (token: string): Response => ({ locals: { apiToken: token } }) as unknown as Response;

/** Signals delivered by hand, and token reads the test answers one by one. */
function harness() {
  const listeners = new Set<Listener>();
  const active = new Set<string>(['kept', 'revoked']);
  const reads: { token: string; answer: (error?: Error) => void }[] = [];
  const credentials = new StreamCredentials({
    isActive: (token) =>
      new Promise<boolean>((resolve, reject) => {
        // Answered later with what is active then: the test decides when a read lands.
        reads.push({ token, answer: (error) => (error === undefined ? resolve(active.has(token)) : reject(error)) });
      }),
    signals: {
      subscribe: (_name, listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    recheckMs: 3_600_000,
  });
  const answerAll = async (error?: Error) => {
    for (const read of reads.splice(0)) read.answer(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  const signal = (how: 'signal' | 'resync') => {
    for (const listener of listeners) {
      if (how === 'signal') listener.signal('some-token-id');
      else listener.resync();
    }
  };
  return { credentials, active, reads, answerAll, signal, listeners };
}

describe('StreamCredentials', () => {
  test('a revocation signal ends exactly the streams of tokens no longer active, each read once per token', async () => {
    const { credentials, active, reads, answerAll, signal } = harness();
    const ended: string[] = [];
    for (const [name, token] of [
      ['a', 'revoked'],
      ['b', 'revoked'],
      ['c', 'kept'],
    ] as const) {
      credentials.watch(opened(token), () => ended.push(name));
    }
    await answerAll(); // the registration re-checks: all active
    expect(ended).toEqual([]);

    active.delete('revoked');
    signal('signal');
    expect(reads.map((read) => read.token).sort()).toEqual(['kept', 'revoked']);
    await answerAll();
    expect(ended.sort()).toEqual(['a', 'b']);
    expect(credentials.watchedCount).toBe(1);
    credentials.stop();
  });

  test('a revocation that landed before the stream registered is caught by the registration re-check', async () => {
    const { credentials, active, answerAll } = harness();
    active.delete('revoked'); // revoked (and signalled) between the auth check and the registration
    let ended = 0;
    credentials.watch(opened('revoked'), () => (ended += 1));
    await answerAll();
    expect(ended).toBe(1);
    credentials.stop();
  });

  test('a resync re-reads too; a failed read ends the stream (fails closed); a released stream is left alone', async () => {
    const { credentials, answerAll, signal, listeners } = harness();
    let endedFailing = 0;
    let endedReleased = 0;
    credentials.watch(opened('kept'), () => (endedFailing += 1));
    const release = credentials.watch(opened('kept'), () => (endedReleased += 1));
    await answerAll();
    release();
    signal('resync');
    await answerAll(new Error('database unreachable'));
    expect(endedFailing).toBe(1);
    expect(endedReleased).toBe(0);
    credentials.stop();
    expect(listeners.size).toBe(0);
  });
});
