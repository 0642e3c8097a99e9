import fc from 'fast-check';
import { StatementNames } from './postgres-statement-names';

const SELECT = 'select "id" from "tasks" where "id" = $1';

describe('StatementNames', () => {
  test('a statement is named the second time it runs, and keeps that name', () => {
    const names = new StatementNames();
    expect(names.nameFor(SELECT, 1)).toBeUndefined();
    const name = names.nameFor(SELECT, 1);
    expect(name).toMatch(/^kandev_\d+$/);
    expect(names.nameFor(SELECT, 1)).toBe(name);
  });

  test.each([
    ['without parameters (a simple query)', 'BEGIN; SELECT pg_advisory_xact_lock(1);', 0],
    ['whose result is `select *`', 'select * from "tasks" where "id" = $1', 1],
    ['whose result is `returning *`', 'update "sessions" set "state" = $1 returning *', 1],
  ])('a statement %s is never named', (_, text, parameters) => {
    const names = new StatementNames();
    for (let i = 0; i < 5; i++) expect(names.nameFor(text, parameters)).toBeUndefined();
  });

  test('past the limit new texts run unnamed; the named keep their names', () => {
    const names = new StatementNames({ named: 2, seenOnce: 10 });
    const texts = [
      'select "a" from t where x = $1',
      'select "b" from t where x = $1',
      'select "c" from t where x = $1',
    ];
    const named = texts.map((text) => (names.nameFor(text, 1), names.nameFor(text, 1)));
    expect(named[0]).toBeDefined();
    expect(named[1]).toBeDefined();
    expect(named[2]).toBeUndefined();
    expect(names.nameFor(texts[0]!, 1)).toBe(named[0]);
  });

  test('texts seen once are forgotten together when too many: a forgotten one starts over', () => {
    const names = new StatementNames({ named: 10, seenOnce: 2 });
    names.nameFor('select "a" from t where x = $1', 1);
    names.nameFor('select "b" from t where x = $1', 1);
    names.nameFor('select "c" from t where x = $1', 1); // full: a and b forgotten, c remembered
    expect(names.nameFor('select "a" from t where x = $1', 1)).toBeUndefined();
    expect(names.nameFor('select "c" from t where x = $1', 1)).toBeDefined();
  });

  test('any sequence: one name per text, never shared, never for `*` or no parameters, at most the limit', () => {
    // A text carries its parameters: the same SQL always comes with as many values.
    const statement = fc
      .tuple(fc.constantFrom('select "a" from', 'select * from', 'delete from'), fc.nat({ max: 6 }), fc.boolean())
      .map(([head, table, bound]) => [`${head} t${table}${bound ? ' where x = $1' : ''}`, bound ? 1 : 0] as const);
    const runs = fc.array(statement, { maxLength: 60 });
    fc.assert(
      fc.property(runs, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 8 }), (sequence, named, seenOnce) => {
        const names = new StatementNames({ named, seenOnce });
        const byText = new Map<string, string>();
        const byName = new Map<string, string>();
        for (const [sql, parameters] of sequence) {
          const name = names.nameFor(sql, parameters);
          if (name === undefined) {
            expect(byText.has(sql)).toBe(false); // once named, always named
            continue;
          }
          expect(parameters).toBeGreaterThan(0);
          expect(sql).not.toContain('*');
          expect(byText.get(sql) ?? name).toBe(name);
          expect(byName.get(name) ?? sql).toBe(sql);
          byText.set(sql, name);
          byName.set(name, sql);
        }
        expect(byText.size).toBeLessThanOrEqual(named);
      }),
    );
  });
});
