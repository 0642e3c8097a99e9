import type { Knex } from 'knex';

// Parent questions (ask_parent_question_kandev): an autopilot child's question to its direct parent,
// with a status written only by compare-and-set (pending -> answered | superseded | stale). Their own
// table, like operator questions, for the same reasons (a lifecycle, state queries); the child's
// conversation also gets a typed 'parent_question' message. `call_key` is the tool-call identity
// (child session, the prompt of the turn in flight, canonical arguments): a retried call finds its row.
// A partial unique index keeps at most one pending question per child session, in SQLite and PostgreSQL.
//
// prompt_queue.priority: 0 for ordinary prompts, 1 for a parent's answer, which drains first and is
// not held by the parent-question gate.

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('parent_questions', (table) => {
    table.string('id', 64).primary();
    table.string('child_task_id', 64).notNullable().references('id').inTable('tasks');
    table.string('child_session_id', 64).notNullable().references('id').inTable('sessions');
    // Which incarnation of the child session asked: a resume issues a fresh MCP token, so a different
    // hash on the session row means the session was resumed after the question (it is stale then).
    table.string('child_session_token_hash', 64).notNullable();
    // The parent when the question was asked; only the CURRENT parent may answer.
    table.string('parent_task_id', 64).notNullable().references('id').inTable('tasks');
    table.string('call_key', 64).notNullable().unique();
    table.string('call_id', 128).notNullable();
    table.string('turn_prompt_id', 64).nullable();
    table.json('questions').notNullable();
    table.text('context').nullable();
    table.text('blocked_reason').notNullable();
    table.string('status', 16).notNullable();
    // Why it ended unanswered: superseded by (operator_prompt | task_message), stale (session_ended, ...).
    table.string('closed_reason', 32).nullable();
    table.string('message_id', 64).notNullable();
    table.string('parent_prompt_id', 64).notNullable();
    table.text('answer').nullable();
    table.string('answered_by_task_id', 64).nullable();
    table.string('answered_by_session_id', 64).nullable();
    table.string('answer_prompt_id', 64).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('answered_at', { useTz: true }).nullable();
    table.timestamp('closed_at', { useTz: true }).nullable();
    table.index(['child_task_id', 'status']);
    table.index(['child_session_id', 'status']);
    table.index(['parent_task_id']);
  });
  await db.raw(
    "CREATE UNIQUE INDEX parent_questions_one_pending_per_session ON parent_questions (child_session_id) WHERE status = 'pending'",
  );
  await db.schema.alterTable('prompt_queue', (table) => {
    table.integer('priority').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('parent_questions');
  await db.schema.alterTable('prompt_queue', (table) => {
    table.dropColumn('priority');
  });
  // The older model knows these entries as plain messages.
  await db('messages').whereIn('type', ['parent_question', 'parent_answer']).update({ type: 'message' });
}
