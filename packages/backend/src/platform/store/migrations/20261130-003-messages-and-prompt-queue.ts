import type { Knex } from 'knex';

// A task's conversation (`messages`) and the prompts waiting for its agent (`prompt_queue`), plus the
// task description create_task_kandev / update_task_kandev write. Portable DDL, like the initial schema.
// Both tables order by `seq` (autoincrement), not by `created_at`: rows written in one millisecond
// keep their insertion order, which a conversation and a FIFO queue both need.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('tasks', (table) => {
    table.text('description').nullable();
  });
  await db.schema.createTable('messages', (table) => {
    table.increments('seq').primary();
    table.string('id', 64).notNullable().unique();
    table.string('task_id', 64).notNullable().references('id').inTable('tasks');
    table.string('session_id', 64).nullable().references('id').inTable('sessions');
    table.string('type', 32).notNullable();
    // 'agent' (the task's own agent), 'operator', or 'task:<id>' (another task's agent).
    table.string('author', 128).notNullable();
    table.text('content').notNullable();
    table.json('metadata').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['task_id', 'created_at']);
    table.index(['task_id', 'seq']);
  });
  await db.schema.createTable('prompt_queue', (table) => {
    table.increments('seq').primary();
    table.string('id', 64).notNullable().unique();
    table.string('task_id', 64).notNullable().references('id').inTable('tasks');
    // null: whichever session of the task runs next.
    table.string('session_id', 64).nullable().references('id').inTable('sessions');
    table.text('prompt').notNullable();
    table.string('source', 128).notNullable();
    table.string('status', 16).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['task_id', 'status', 'seq']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('prompt_queue');
  await db.schema.dropTableIfExists('messages');
  await db.schema.alterTable('tasks', (table) => {
    table.dropColumn('description');
  });
}
