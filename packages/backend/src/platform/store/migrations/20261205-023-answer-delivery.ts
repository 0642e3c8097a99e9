import type { Knex } from 'knex';

// Where an operator question's answer went (`answer_delivery`): `waiting_call` (the held tool call
// returned it), `queued_prompt` (the call was gone: a prompt carries it to the session's agent) or
// `undeliverable` (the call was gone and the session has no agent to prompt). Null: not answered, or
// answered before this column.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('questions', (table) => {
    table.string('answer_delivery').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('questions', (table) => {
    table.dropColumn('answer_delivery');
  });
}
