// last_used_at is written at most once per LAST_USED_PRECISION_MS, not on every authenticated request
// (each console re-read and event stream would otherwise be a write).
import {
  ApiTokenService,
  createLogger,
  LAST_USED_PRECISION_MS,
  migrateToLatest,
  openTestDatabase,
  TOKEN_CHECK_TTL_MS,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

describe('API token last use', () => {
  const cleanup = useCleanup();

  test('is written on first use, kept within the precision, written again after it', async () => {
    const db = await openTestDatabase(tempDir(cleanup, 'kandev-token-'), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
    let now = new Date('2026-12-01T10:00:00.000Z');
    // Every check reads the token (its monotonic clock leaps past each trusted check): this is about
    // the writes of last_used_at, not the trust in a check (api-token-checks).
    let monotonic = 0;
    const tokens = new ApiTokenService({
      ...{ db, clock: () => now, logger: createLogger('silent') },
      monotonic: () => (monotonic += 2 * TOKEN_CHECK_TTL_MS),
    });
    const created = await tokens.create('ci');
    const lastUsed = async () => (await tokens.list()).find((t) => t.id === created.id)?.lastUsedAt;
    expect(await lastUsed()).toBeNull();

    expect(await tokens.authenticate(created.token)).toBe(true);
    expect(await lastUsed()).toBe('2026-12-01T10:00:00.000Z');

    now = new Date(now.getTime() + LAST_USED_PRECISION_MS - 1);
    expect(await tokens.authenticate(created.token)).toBe(true);
    expect(await lastUsed()).toBe('2026-12-01T10:00:00.000Z');

    now = new Date(now.getTime() + 1);
    expect(await tokens.authenticate(created.token)).toBe(true);
    expect(await lastUsed()).toBe(now.toISOString());
  });
});
