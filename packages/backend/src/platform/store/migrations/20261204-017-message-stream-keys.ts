import type { Knex } from 'knex';

// Agent text and plans arrive as they stream: each run of text (and each turn's plan) is one
// conversation entry, inserted on its first event and rewritten by the next ones. `stream_key` names
// the entry within its session (`text:<prompt id>:<segment>`, `plan:<prompt id>`), so a later event
// finds it and a replayed first event cannot insert it twice. NULL elsewhere (NULLs never collide in a
// unique index, in SQLite or PostgreSQL). Portable DDL.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('messages', (table) => {
    table.string('stream_key', 255).nullable();
    table.unique(['session_id', 'stream_key']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('messages', (table) => {
    table.dropUnique(['session_id', 'stream_key']);
    table.dropColumn('stream_key');
  });
}
