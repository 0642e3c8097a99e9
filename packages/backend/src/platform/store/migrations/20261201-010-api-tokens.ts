import type { Knex } from 'knex';

// Operator API tokens (docs/security.md, "Operator API tokens"). Only the sha256 of a token is stored:
// a copy of the database does not let anyone call the API. `prefix` is the first characters, for display.
// A revoked token keeps its row (revoked_at set) so the list can say what was revoked and when.

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('api_tokens', (table) => {
    table.string('id', 64).primary();
    table.string('name', 200).notNullable();
    table.string('prefix', 32).notNullable();
    table.string('token_hash', 64).notNullable().unique();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('last_used_at', { useTz: true }).nullable();
    table.timestamp('revoked_at', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('api_tokens');
}
