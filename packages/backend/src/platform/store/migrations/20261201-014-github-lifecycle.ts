import type { Knex } from 'knex';

// GitHub PR lifecycle (docs/github.md): task_prs gets what task_mrs
// got in migration 009 (the poller's last read, the rules' checkpoint, the last evaluation) plus the
// last auto-merge outcome. ETags are not stored: they live in the poller's memory. The token's login
// goes into workspace_credentials.username, which exists already.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('task_prs', (table) => {
    table.timestamp('polled_at', { useTz: true }).nullable();
    table.text('poll_error').nullable();
    table.json('lifecycle_checkpoint').nullable();
    table.json('last_evaluation').nullable();
    table.json('merge_outcome').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('task_prs', (table) => {
    table.dropColumn('merge_outcome');
    table.dropColumn('last_evaluation');
    table.dropColumn('lifecycle_checkpoint');
    table.dropColumn('poll_error');
    table.dropColumn('polled_at');
  });
}
