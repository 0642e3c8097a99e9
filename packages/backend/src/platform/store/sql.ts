import type { Knex } from 'knex';

/**
 * What a store runs its statements on: the database (a knex instance), or one unit of work's
 * transaction (platform/store/driver/store-transaction.ts). Only what stores need of knex: a table's
 * query builder (`db('tasks')`, rows as `any`; `db<TaskRow>('tasks')`, typed as knex types them), a
 * builder without a table (`queryBuilder()`), raw SQL, column references, and `client` (which database:
 * `dialectOf`). A knex instance is one.
 */
export type Sql = Pick<Knex, 'raw' | 'ref' | 'queryBuilder' | 'client'> &
  ((tableName: Knex.TableDescriptor | Knex.AliasDict) => ReturnType<Knex>) &
  // knex's own type for a table of given rows (its `table()`), with no selection yet.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  Knex.Table<any, unknown[]>;
