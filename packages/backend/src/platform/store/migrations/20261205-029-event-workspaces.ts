import type { Knex } from 'knex';

// The workspace of an event that belongs to no task (a repository, a credential, the workspace itself),
// so a stream limited to workspaces carries it to that workspace's tokens only. Null for task events
// (their workspace is their task's) and for events of no workspace (tokens, agent profiles), which only
// streams of every workspace carry. Indexed like the task's (column, id) for the stream's filter.
// Portable DDL.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('events', (table) => {
    table.string('workspace_id').nullable();
    table.index(['workspace_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('events', (table) => {
    table.dropIndex(['workspace_id', 'id']);
  });
  // ALTER TABLE … DROP COLUMN on both databases (knex's SQLite dropColumn rebuilds the table).
  await db.raw('ALTER TABLE events DROP COLUMN workspace_id');
}
