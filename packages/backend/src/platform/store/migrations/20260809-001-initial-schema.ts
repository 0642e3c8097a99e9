import type { Knex } from 'knex';

// Portable DDL only (SQLite now, PostgreSQL later): ISO-8601 timestamps, JSON as `json`, booleans as `boolean`.

function timestamps(table: Knex.CreateTableBuilder, withUpdated: boolean): void {
  table.timestamp('created_at', { useTz: true }).notNullable();
  if (withUpdated) table.timestamp('updated_at', { useTz: true }).notNullable();
}

async function createIdentityTables(db: Knex): Promise<void> {
  await db.schema.createTable('workspaces', (table) => {
    table.string('id', 64).primary();
    table.string('name', 200).notNullable();
    timestamps(table, false);
  });
  await db.schema.createTable('repositories', (table) => {
    table.string('id', 64).primary();
    table.string('workspace_id', 64).notNullable().references('id').inTable('workspaces');
    table.string('source_type', 16).notNullable();
    table.string('provider', 32).nullable();
    table.string('provider_host', 255).nullable();
    table.string('owner', 255).nullable();
    table.string('name', 255).notNullable();
    table.text('remote_url').nullable();
    table.text('local_path').nullable();
    table.text('identity_key').notNullable();
    timestamps(table, false);
    table.unique(['workspace_id', 'identity_key']);
  });
  await db.schema.createTable('agent_profiles', (table) => {
    table.string('id', 64).primary();
    table.string('name', 200).notNullable();
    table.text('command').notNullable();
    table.json('args').notNullable();
    table.boolean('supports_mcp').notNullable().defaultTo(true);
    timestamps(table, false);
  });
}

async function createTaskTables(db: Knex): Promise<void> {
  await db.schema.createTable('tasks', (table) => {
    table.string('id', 64).primary();
    table.string('workspace_id', 64).notNullable().references('id').inTable('workspaces');
    table.string('parent_id', 64).nullable().references('id').inTable('tasks');
    table.text('title').notNullable();
    table.string('state', 32).notNullable();
    table.boolean('autopilot').notNullable().defaultTo(false);
    table.string('agent_profile_id', 64).nullable().references('id').inTable('agent_profiles');
    table.timestamp('archived_at', { useTz: true }).nullable();
    timestamps(table, true);
    table.index(['workspace_id']);
    table.index(['parent_id']);
  });
  await db.schema.createTable('task_repositories', (table) => {
    table.string('task_id', 64).notNullable().references('id').inTable('tasks');
    table.string('repository_id', 64).notNullable().references('id').inTable('repositories');
    table.string('base_branch', 255).nullable();
    table.string('batch_id', 64).notNullable();
    timestamps(table, false);
    table.primary(['task_id', 'repository_id']);
  });
  await db.schema.createTable('sessions', (table) => {
    table.string('id', 64).primary();
    table.string('task_id', 64).notNullable().references('id').inTable('tasks');
    table.string('state', 32).notNullable();
    table.string('executor', 32).notNullable();
    table.string('agentctl_address', 255).nullable();
    table.integer('revision').notNullable();
    table.json('launch_config').notNullable();
    table.string('mcp_token_hash', 64).notNullable();
    table.string('surface', 32).notNullable();
    table.text('last_error').nullable();
    timestamps(table, true);
    table.index(['task_id']);
  });
}

export async function up(db: Knex): Promise<void> {
  await createIdentityTables(db);
  await createTaskTables(db);
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['sessions', 'task_repositories', 'tasks', 'agent_profiles', 'repositories', 'workspaces']) {
    await db.schema.dropTableIfExists(table);
  }
}
