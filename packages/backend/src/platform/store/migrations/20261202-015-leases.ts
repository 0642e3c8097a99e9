import type { Knex } from 'knex';

// Several replicas on one database (docs/replicas.md, ADR: replicas and leases). `leases` holds who does
// a piece of work that must happen once (a session's drain, a link's poll, an agentctl's Attach stream)
// until when: epoch milliseconds of the claiming replica's clock, as integers, so the one conditional
// statement that claims compares the same way on SQLite and PostgreSQL. An expired row is free.
// `lifecycle_version` on the MR and PR links makes recording a lifecycle evaluation a compare-and-set:
// two replicas that evaluated the same transition cannot both queue its prompt.

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('leases', (table) => {
    table.string('name', 300).primary();
    table.string('owner', 64).notNullable();
    table.bigInteger('expires_at_ms').notNullable();
    table.bigInteger('acquired_at_ms').notNullable();
    table.index(['owner']);
  });
  for (const links of ['task_mrs', 'task_prs']) {
    await db.schema.alterTable(links, (table) => {
      table.integer('lifecycle_version').notNullable().defaultTo(0);
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const links of ['task_mrs', 'task_prs']) {
    await db.schema.alterTable(links, (table) => {
      table.dropColumn('lifecycle_version');
    });
  }
  await db.schema.dropTable('leases');
}
