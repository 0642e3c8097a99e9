import type { Knex } from 'knex';

// Which backend replica runs a session's agentctl when only that replica can reach it (its own local
// agentctl, on a database several replicas share): null for an agentctl every replica reaches (remote,
// Kubernetes) and for every session of a backend alone on its database. Portable DDL.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('sessions', (table) => {
    table.string('agentctl_replica').nullable();
    table.index(['agentctl_replica']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('sessions', (table) => {
    table.dropIndex(['agentctl_replica']);
  });
  // ALTER TABLE … DROP COLUMN on both databases: knex's SQLite dropColumn rebuilds the table, which
  // the foreign keys other tables hold on sessions refuse.
  await db.raw('ALTER TABLE sessions DROP COLUMN agentctl_replica');
}
