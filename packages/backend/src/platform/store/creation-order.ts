import type { Knex } from 'knex';

/** A row's place in creation order (ties broken by id): the keyset every list route pages by. */
export interface CreationPosition {
  createdAt: string;
  id: string;
}

/** Narrows `query` to up to `limit` rows in creation order, strictly after `after` (undefined: from the start). */
export function inCreationOrder<Q extends Knex.QueryBuilder>(
  query: Q,
  after: CreationPosition | undefined,
  limit: number,
): Q {
  if (after !== undefined) {
    void query.where((q) => {
      void q
        .where('created_at', '>', after.createdAt)
        .orWhere((same) => void same.where('created_at', '=', after.createdAt).where('id', '>', after.id));
    });
  }
  return query.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(limit) as Q;
}
