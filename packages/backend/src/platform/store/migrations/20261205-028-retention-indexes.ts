import type { Knex } from 'knex';

// Retention of ended sessions' details (runtime/sessions/store/session-history.ts) finds a session's history
// rows by session and kind; without this index each pruning batch would scan the whole history.
// Portable DDL.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('session_history', (table) => {
    table.index(['session_id', 'kind']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('session_history', (table) => {
    table.dropIndex(['session_id', 'kind']);
  });
}
