import type { Knex } from 'knex';

// Agent profiles gain the environment their agent starts with (a JSON object of names to values;
// values may be secrets and are never logged), and profile names become unique.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('agent_profiles', (table) => {
    table.json('env').notNullable().defaultTo('{}');
    table.unique(['name']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('agent_profiles', (table) => {
    table.dropUnique(['name']);
    table.dropColumn('env');
  });
}
