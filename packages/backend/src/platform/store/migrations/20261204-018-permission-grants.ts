import type { Knex } from 'knex';

// Permission grants (docs/agents.md): "Allow always" is remembered by
// kandev for the task, never by the agent (which would write its own rule outside the task workspace).
// One row per (task, tool kind, exact title); the unique index makes a concurrent identical grant a
// no-op (insert ... on conflict do nothing). Titles are capped at 2000 bytes by the rule that keys them,
// which keeps the index entry within PostgreSQL's btree limit. A task's grants go with it: deleted
// when it is archived, cascaded if its row is ever deleted.

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('permission_grants', (table) => {
    table.string('id', 64).primary();
    table.string('task_id', 64).notNullable().references('id').inTable('tasks').onDelete('CASCADE');
    table.string('tool_kind', 64).notNullable();
    table.text('title').notNullable();
    // 'operator' or 'task:<parent task id>'.
    table.string('granted_by', 200).notNullable();
    table.string('session_id', 64).nullable().references('id').inTable('sessions').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.unique(['task_id', 'tool_kind', 'title']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('permission_grants');
}
