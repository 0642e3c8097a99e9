import type { Knex } from 'knex';

/** A row's place in creation order (ties broken by id): the keyset every list route pages by. */
export interface CreationPosition {
  createdAt: string;
  id: string;
}

/**
 * Narrows `query` to up to `limit` rows in creation order (newest first with `descending`), strictly
 * beyond `after` in that order (undefined: from the start).
 */
export function inCreationOrder<Q extends Knex.QueryBuilder>(
  query: Q,
  after: CreationPosition | undefined,
  limit: number,
  descending = false,
): Q {
  const beyond = descending ? '<' : '>';
  const order = descending ? 'desc' : 'asc';
  if (after !== undefined) {
    void query.where((q) => {
      void q
        .where('created_at', beyond, after.createdAt)
        .orWhere((same) => void same.where('created_at', '=', after.createdAt).where('id', beyond, after.id));
    });
  }
  return query
    .orderBy([
      { column: 'created_at', order },
      { column: 'id', order },
    ])
    .limit(limit) as Q;
}
