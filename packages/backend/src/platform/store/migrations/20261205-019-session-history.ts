import type { Knex } from 'knex';

// A session's history for its task's timeline: each state change and each tool list that changed
// (revision, added and removed names), kept for as long as the session, whereas the event log drops
// old events. Written with the event on the same connection (the payload is the event's data). The
// events still retained are copied in, so a session from before this table keeps what is left of its
// history. Ordered by (created_at, id) within a task. Portable DDL.

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('session_history', (table) => {
    table.increments('id').primary();
    table.string('session_id', 128).notNullable();
    table.string('task_id', 128).notNullable();
    // 'state_change' or 'tools_revision'.
    table.string('kind', 32).notNullable();
    table.text('payload').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['task_id', 'created_at', 'id']);
  });
  await db.raw(
    `INSERT INTO session_history (session_id, task_id, kind, payload, created_at)
     SELECT session_id, task_id,
            CASE type WHEN 'session.state_changed' THEN 'state_change' ELSE 'tools_revision' END,
            payload, created_at
     FROM events
     WHERE type IN ('session.state_changed', 'tools.changed') AND session_id IS NOT NULL AND task_id IS NOT NULL
     ORDER BY id`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('session_history');
}
