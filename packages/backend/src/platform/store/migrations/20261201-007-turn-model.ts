import type { Knex } from 'knex';

// The turn model: sessions move through created -> starting -> waiting_for_input <-> running and end
// completed, failed or cancelled; prompts are dispatched to the agent one at a time and finish.
// Portable DDL and plain UPDATEs (SQLite and PostgreSQL alike).
//
// Existing rows: 'stopped' was an operator's or a parent's stop (now 'cancelled'); 'running' was a
// session agentctl held with no turn model, i.e. idle and waiting for input.

const STATE_RENAMES = [
  ['stopped', 'cancelled'],
  ['running', 'waiting_for_input'],
] as const;

export async function up(db: Knex): Promise<void> {
  for (const [from, to] of STATE_RENAMES) await db('sessions').where({ state: from }).update({ state: to });
  await db.schema.alterTable('sessions', (table) => {
    // The agent's ACP session (agent_started), continued with session/load on resume when it can be.
    table.string('acp_session_id', 255).nullable();
  });
  await db.schema.alterTable('prompt_queue', (table) => {
    // Statuses: queued -> dispatched -> completed | failed (dispatched -> queued when agentctl refused it).
    table.timestamp('dispatched_at', { useTz: true }).nullable();
    table.timestamp('finished_at', { useTz: true }).nullable();
    table.string('stop_reason', 64).nullable();
    table.text('error').nullable();
    table.index(['session_id', 'status', 'seq']);
  });
  await db.schema.alterTable('messages', (table) => {
    // One conversation entry per agent tool call, updated as the call progresses. NULL elsewhere
    // (NULLs never collide in a unique index, in SQLite or PostgreSQL).
    table.string('tool_call_id', 255).nullable();
    table.unique(['session_id', 'tool_call_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('messages', (table) => {
    table.dropUnique(['session_id', 'tool_call_id']);
    table.dropColumn('tool_call_id');
  });
  await db.schema.alterTable('prompt_queue', (table) => {
    table.dropIndex(['session_id', 'status', 'seq']);
    for (const column of ['dispatched_at', 'finished_at', 'stop_reason', 'error']) table.dropColumn(column);
  });
  // The old model knows only waiting prompts: finished ones are gone, an in-flight one waits again.
  await db('prompt_queue').whereIn('status', ['completed', 'failed']).delete();
  await db('prompt_queue').where({ status: 'dispatched' }).update({ status: 'queued' });
  // sessions.acp_session_id stays: SQLite drops a column by rebuilding the table, which other tables'
  // foreign keys forbid; an unused nullable column is harmless to the older model.
  await db('sessions').whereIn('state', ['cancelled', 'completed']).update({ state: 'stopped' });
  await db('sessions').where({ state: 'waiting_for_input' }).update({ state: 'running' });
  await db('sessions').where({ state: 'created' }).update({ state: 'failed' });
}
