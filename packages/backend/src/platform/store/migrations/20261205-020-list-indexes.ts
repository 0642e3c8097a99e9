import type { Knex } from 'knex';

// Indexes for the lists operators page through: a workspace's tasks in creation or update order
// (either direction: a B-tree reads both ways), each task's newest session (board badges), every
// session in creation order, optionally by state, and operator questions by state in creation order.
// Each ends on the id, the keyset tie-breaker. Portable DDL.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('tasks', (table) => {
    table.index(['workspace_id', 'created_at', 'id']);
    table.index(['workspace_id', 'updated_at', 'id']);
  });
  await db.schema.alterTable('sessions', (table) => {
    table.index(['task_id', 'created_at', 'id']);
    table.index(['created_at', 'id']);
    table.index(['state', 'created_at', 'id']);
  });
  await db.schema.alterTable('questions', (table) => {
    table.index(['state', 'created_at', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('questions', (table) => {
    table.dropIndex(['state', 'created_at', 'id']);
  });
  await db.schema.alterTable('sessions', (table) => {
    table.dropIndex(['state', 'created_at', 'id']);
    table.dropIndex(['created_at', 'id']);
    table.dropIndex(['task_id', 'created_at', 'id']);
  });
  await db.schema.alterTable('tasks', (table) => {
    table.dropIndex(['workspace_id', 'updated_at', 'id']);
    table.dropIndex(['workspace_id', 'created_at', 'id']);
  });
}
