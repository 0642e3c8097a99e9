import type { Knex } from 'knex';

// PR/MR links of a task with their automation switches, and per-workspace provider credentials.
// Portable DDL (SQLite now, PostgreSQL later), like the initial schema.

function automationColumns(table: Knex.CreateTableBuilder): void {
  for (const option of [
    'auto_fix',
    'auto_merge',
    'prompt_on_review_requested',
    'prompt_on_merged',
    'prompt_on_closed',
  ]) {
    table.boolean(option).notNullable().defaultTo(false);
  }
}

function linkColumns(table: Knex.CreateTableBuilder): void {
  table.string('id', 64).primary();
  table.string('task_id', 64).notNullable().references('id').inTable('tasks');
  table.string('repository_id', 64).notNullable().references('id').inTable('repositories');
}

function timestamps(table: Knex.CreateTableBuilder): void {
  table.timestamp('created_at', { useTz: true }).notNullable();
  table.timestamp('updated_at', { useTz: true }).notNullable();
}

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('task_prs', (table) => {
    linkColumns(table);
    table.integer('number').notNullable();
    table.string('state', 16).notNullable();
    table.string('head_sha', 64).nullable();
    automationColumns(table);
    timestamps(table);
    table.unique(['task_id', 'repository_id', 'number']);
  });
  await db.schema.createTable('task_mrs', (table) => {
    linkColumns(table);
    table.string('project_path', 1024).notNullable();
    table.integer('iid').notNullable();
    table.string('state', 16).notNullable();
    table.string('head_sha', 64).nullable();
    automationColumns(table);
    table.json('lifecycle_checkpoint').nullable();
    timestamps(table);
    // The tools name an MR by repository_id + mr_iid, so that pair is the link's identity within a task.
    table.unique(['task_id', 'repository_id', 'iid']);
  });
  await db.schema.createTable('workspace_credentials', (table) => {
    table.string('workspace_id', 64).notNullable().references('id').inTable('workspaces');
    table.string('provider', 32).notNullable();
    // Plain text when this was written; sealed by its store since (docs/security.md#secrets-at-rest).
    table.text('token').notNullable();
    table.string('username', 255).nullable();
    timestamps(table);
    table.primary(['workspace_id', 'provider']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['workspace_credentials', 'task_mrs', 'task_prs']) {
    await db.schema.dropTableIfExists(table);
  }
}
