import type { Knex } from 'knex';

// Who made each change the event log records (the audit trail): an API token (its id and name) or an
// agent's session (its id); null for what the backend did by itself. Indexed for GET /api/audit, which
// reads the newest first, optionally by actor. Portable DDL.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('events', (table) => {
    table.string('actor_kind').nullable();
    table.string('actor_id').nullable();
    table.string('actor_name').nullable();
    table.index(['actor_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('events', (table) => {
    table.dropIndex(['actor_id', 'id']);
  });
  // ALTER TABLE … DROP COLUMN on both databases (knex's SQLite dropColumn rebuilds the table).
  for (const column of ['actor_kind', 'actor_id', 'actor_name']) {
    await db.raw(`ALTER TABLE events DROP COLUMN ${column}`);
  }
}
