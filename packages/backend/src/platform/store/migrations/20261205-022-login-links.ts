import type { Knex } from 'knex';

// Console sign-in links (docs/console.md), shared by every replica on the database so a link works on
// whichever one the browser reaches. A row is keyed by the sha256 of its one-time code, never the code:
// `sealed_token` is the API token it signs in as, sealed under a key derived from the code, so a copy of
// the database opens no link and reveals no token. `expires_at_ms` is epoch milliseconds of the issuing
// replica's clock, as an integer, compared the same way on SQLite and PostgreSQL; expired rows are
// deleted when links are issued.

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('login_links', (table) => {
    table.string('code_hash', 64).primary();
    table.text('sealed_token').notNullable();
    table.bigInteger('expires_at_ms').notNullable();
    table.index(['expires_at_ms']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('login_links');
}
