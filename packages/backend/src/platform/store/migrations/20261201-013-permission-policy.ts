import type { Knex } from 'knex';

// Agent profiles gain how agentctl answers their agent's ACP permission requests ('ask', 'allow_all' or
// 'deny_all'; docs/agents.md#permission-policy). Existing profiles become 'ask', the default: an
// operator now sees each request instead of agentctl allowing it unseen.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('agent_profiles', (table) => {
    table.string('permission_policy', 16).notNullable().defaultTo('ask');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('agent_profiles', (table) => {
    table.dropColumn('permission_policy');
  });
}
