import type { Knex } from 'knex';

// Roles on operator API tokens (docs/security.md, "Roles"): `role` is admin, operator or viewer; tokens
// made before roles existed keep every right they had (admin). `workspaces` is a JSON array of
// workspace ids the token is limited to, NULL for all. `created_by` is the id of the token that minted
// it (NULL for the admin token file and for tokens from before this column). Portable DDL.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('api_tokens', (table) => {
    table.string('role', 16).notNullable().defaultTo('admin');
    table.text('workspaces').nullable();
    table.string('created_by', 64).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('api_tokens', (table) => {
    table.dropColumn('created_by');
    table.dropColumn('workspaces');
    table.dropColumn('role');
  });
}
