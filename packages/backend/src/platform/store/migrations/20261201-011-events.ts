import type { Knex } from 'knex';

// The durable event log behind GET /api/events (ADR: durable event log). Each row is appended in the
// transaction that makes the change it describes; the autoincrement id is the stream's Last-Event-ID.
// `session_tool_lists` keeps the tool list agentctl last reported for each session, so a new
// acknowledgement can say which tools were added and removed (tools.changed). A table of its own, not a
// sessions column: SQLite drops a column by rebuilding the table, which its foreign keys refuse.

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('events', (table) => {
    table.increments('id').primary();
    table.string('type', 64).notNullable();
    table.string('task_id', 128).nullable();
    table.string('session_id', 128).nullable();
    table.text('payload').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['task_id', 'id']);
    table.index(['session_id', 'id']);
    table.index(['created_at']);
  });
  await db.schema.createTable('session_tool_lists', (table) => {
    table.string('session_id', 128).primary();
    table.text('tool_names').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('session_tool_lists');
  await db.schema.dropTable('events');
}
