import type { Knex } from 'knex';

// Keyset pages over rows of several tables merged by time (a task's timeline): each table's rows are
// read in (time, key) order, and a page of the merge starts strictly after the last row returned. At
// one same time, the tables come in a fixed order, so the bound on a table's rows at the cursor's time
// depends on where that table sits against the cursor's.

/** Where one table's next rows start. */
export interface TimeBound {
  /** The time of the last row returned (ISO). */
  at: string;
  /** Rows at exactly `at`: all of them (the table comes after the cursor's), none (it comes before), or after a key. */
  same: 'all' | 'none' | { after: string | number };
}

/** Restricts `query` to rows after `bound` (all rows when none) and orders them by (time, key). */
export function fromTimeBound<Q extends Knex.QueryBuilder>(
  query: Q,
  timeColumn: string,
  keyColumn: string,
  bound: TimeBound | undefined,
): Q {
  if (bound !== undefined) {
    const { at, same } = bound;
    if (same === 'all') void query.where(timeColumn, '>=', at);
    else if (same === 'none') void query.where(timeColumn, '>', at);
    else {
      void query.where((q) => {
        void q.where(timeColumn, '>', at).orWhere((sameTime) => {
          void sameTime.where(timeColumn, '=', at).where(keyColumn, '>', same.after);
        });
      });
    }
  }
  void query.orderBy([{ column: timeColumn }, { column: keyColumn }]);
  return query;
}
