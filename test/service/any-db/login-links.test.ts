// Console sign-in links live in the database (docs/console.md): two LoginLinks over one database stand
// for two replicas. A link issued on one is redeemed on the other, once; the rows hold neither the code
// nor the token; expired links are refused and pruned.
import { LOGIN_LINK_TTL_MS, LoginLinks, migrateToLatest, openTestDatabase } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const TOKEN = 'kdv_operator-token-0123456789abcdef';

describe('console sign-in links', () => {
  const cleanup = useCleanup();

  async function setup() {
    const db = await openTestDatabase(tempDir(cleanup, 'kandev-login-'), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
    let now = Date.parse('2026-12-05T10:00:00Z');
    const clock = () => new Date(now);
    return {
      db,
      a: new LoginLinks(db, clock),
      b: new LoginLinks(db, clock),
      step: (ms: number) => (now += ms),
      at: () => now,
    };
  }

  test('issued on one replica, redeemed on the other, once', async () => {
    const { a, b, at } = await setup();
    const { code, expiresAt } = await a.issue(TOKEN);
    expect(code).toMatch(/^[\w-]{32}$/);
    expect(expiresAt.getTime() - at()).toBe(LOGIN_LINK_TTL_MS);
    expect(await b.redeem('unknown')).toBeUndefined();
    expect(await b.redeem(code)).toBe(TOKEN);
    expect(await b.redeem(code)).toBeUndefined();
    expect(await a.redeem(code)).toBeUndefined();
  });

  test('two replicas redeeming one code at once: exactly one gets the token', async () => {
    const { a, b } = await setup();
    const codes = await Promise.all(Array.from({ length: 10 }, () => a.issue(TOKEN)));
    for (const { code } of codes) {
      const results = await Promise.all([a.redeem(code), b.redeem(code)]);
      expect(results.filter((token) => token === TOKEN)).toHaveLength(1);
    }
  });

  test('the rows hold the code hash and a sealed token, never the code or the token', async () => {
    const { db, a } = await setup();
    const { code } = await a.issue(TOKEN);
    const rows = (await db('login_links').select('code_hash', 'sealed_token', 'expires_at_ms')) as unknown[];
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(TOKEN);
  });

  test('an expired link is refused; issuing prunes expired rows', async () => {
    const { db, a, b, step } = await setup();
    const old = await a.issue(TOKEN);
    await a.issue(TOKEN);
    step(LOGIN_LINK_TTL_MS);
    expect(await b.redeem(old.code)).toBeUndefined();
    const fresh = await b.issue(TOKEN);
    const left = await db<{ expires_at_ms: number | string }>('login_links').select('expires_at_ms');
    expect(left.map((row) => Number(row.expires_at_ms))).toEqual([fresh.expiresAt.getTime()]);
    expect(await a.redeem(fresh.code)).toBe(TOKEN);
  });
});
