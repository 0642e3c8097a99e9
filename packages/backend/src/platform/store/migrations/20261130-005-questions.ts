import type { Knex } from 'knex';

// Operator questions (ask_user_question_kandev): their own table rather than typed `messages` rows,
// because a question has a lifecycle (pending -> answered | expired | cancelled) that is settled by
// compare-and-set on `state`, and an expiry the list query filters on; messages are append-only.
// kind: 'user' here (parent questions got their own table later). JSON columns hold the asked
// questions and the answers.

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('questions', (table) => {
    table.string('id', 64).primary();
    table.string('task_id', 64).notNullable().references('id').inTable('tasks');
    table.string('session_id', 64).notNullable().references('id').inTable('sessions');
    table.string('call_id', 128).notNullable();
    table.string('kind', 16).notNullable();
    table.json('questions').notNullable();
    table.text('context').nullable();
    table.string('state', 16).notNullable();
    table.json('answer').nullable();
    table.string('answered_by', 128).nullable();
    // Why a question ended unanswered: 'timeout', 'cancelled' or 'session_stopped'.
    table.string('closed_reason', 32).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('answered_at', { useTz: true }).nullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.index(['state', 'expires_at']);
    table.index(['task_id', 'state']);
    table.index(['session_id', 'state']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('questions');
}
