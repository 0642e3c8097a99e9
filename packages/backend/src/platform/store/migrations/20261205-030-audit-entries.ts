import type { Knex } from 'knex';

// The audit trail's own table: a copy of each event that has an actor (a token or an agent's session),
// appended with it, so the trail is kept for its own retention (KANDEV_AUDIT_RETENTION_DAYS) while the
// event log, the streams' replay buffer, drops its events sooner. The events already recorded with an
// actor are copied in, oldest first. Indexed for GET /api/audit: newest first, by actor or by task; and
// by time for retention. Portable DDL.

const COLUMNS = [
  'type',
  'task_id',
  'session_id',
  'workspace_id',
  'actor_kind',
  'actor_id',
  'actor_name',
  'payload',
  'created_at',
];

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('audit_entries', (table) => {
    table.increments('id').primary();
    table.string('type', 64).notNullable();
    table.string('task_id', 128).nullable();
    table.string('session_id', 128).nullable();
    table.string('workspace_id').nullable();
    table.string('actor_kind').notNullable();
    table.string('actor_id').notNullable();
    table.string('actor_name').nullable();
    table.text('payload').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['actor_id', 'id']);
    table.index(['task_id', 'id']);
    table.index(['created_at']);
  });
  await db.raw(
    `INSERT INTO audit_entries (${COLUMNS.join(', ')}) SELECT ${COLUMNS.join(', ')} FROM events ` +
      'WHERE actor_kind IS NOT NULL AND actor_id IS NOT NULL ORDER BY id',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('audit_entries');
}
