// Token checks are trusted for TOKEN_CHECK_TTL_MS (docs/security.md#operator-api-tokens), yet revocation
// stays synchronous: two services over one database stand for two replicas; their monotonic clock and
// the revocation's wait are stepped by the test.
import {
  ApiTokenService,
  createLogger,
  migrateToLatest,
  openTestDatabase,
  TOKEN_CHECK_TTL_MS,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const TOKEN_READ = /from [`"]api_tokens[`"]/i;

describe('API token checks', () => {
  const cleanup = useCleanup();

  async function setup() {
    const db = await openTestDatabase(tempDir(cleanup, 'kandev-token-'), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
    const reads: string[] = [];
    db.on('query', (query: { sql: string }) => {
      if (TOKEN_READ.test(query.sql)) reads.push(query.sql);
    });
    let now = 0;
    const pauses: { ms: number; end: () => void }[] = [];
    const replica = (replicasShareTheDatabase = true) =>
      new ApiTokenService({
        ...{ db, clock: () => new Date('2026-12-03T12:00:00.000Z'), logger: createLogger('silent') },
        replicasShareTheDatabase,
        monotonic: () => now,
        pause: (ms) => new Promise<void>((resolve) => pauses.push({ ms, end: resolve })),
      });
    return { a: replica(), b: replica(), alone: replica(false), reads, pauses, step: (ms: number) => (now += ms) };
  }

  test('a token found active is not read again within the TTL; after it, it is', async () => {
    const { a, reads, step } = await setup();
    const { token } = await a.create('ci');
    expect(await a.authenticate(token)).toBe(true);
    const afterFirst = reads.length;
    step(TOKEN_CHECK_TTL_MS - 1);
    expect(await a.authenticate(token)).toBe(true);
    expect(reads).toHaveLength(afterFirst);
    step(1);
    expect(await a.authenticate(token)).toBe(true);
    expect(reads.length).toBeGreaterThan(afterFirst);
  });

  test('revoked on one replica, refused by the other once the revocation answered', async () => {
    const { a, b, pauses, step } = await setup();
    const created = await a.create('ci');
    expect(await a.authenticate(created.token)).toBe(true); // trusted by both replicas from now on
    expect(await b.authenticate(created.token)).toBe(true);

    let answered = false;
    const revoking = b.revoke(created.id).then(() => (answered = true));
    while (pauses.length === 0) await new Promise((resolve) => setImmediate(resolve)); // committed
    expect(pauses[0]?.ms).toBe(TOKEN_CHECK_TTL_MS);
    expect(await b.authenticate(created.token)).toBe(false); // the revoking replica refuses it at once
    expect(answered).toBe(false); // and waits out what replica a may still trust

    step(TOKEN_CHECK_TTL_MS);
    pauses[0]?.end();
    await revoking;
    expect(await a.authenticate(created.token)).toBe(false);
  });

  test('without other replicas a revocation answers at once and is refused at once', async () => {
    const { alone: tokens, pauses } = await setup();
    const created = await tokens.create('ci');
    expect(await tokens.authenticate(created.token)).toBe(true);
    await tokens.revoke(created.id);
    expect(pauses).toEqual([]);
    expect(await tokens.authenticate(created.token)).toBe(false);
  });
});
