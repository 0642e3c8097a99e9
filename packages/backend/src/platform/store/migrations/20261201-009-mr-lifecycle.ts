import type { Knex } from 'knex';

// GitLab MR lifecycle (docs/gitlab.md#gitlab-mr-lifecycle).
// - prompt_queue.coalescing_key: a prompt queued by an automation names the transition it is for; the
//   unique index makes a second prompt for the same transition impossible, whatever races.
// - task_mrs: the poller's last read (polled_at, poll_error) and the evaluator's last outcome. The
//   reviewer list is NOT stored: it travels with the update event only.
// - workspace_credentials.base_url: the GitLab instance (gitlab.com or a self-managed host).

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('prompt_queue', (table) => {
    table.string('coalescing_key', 255).nullable().unique();
  });
  await db.schema.alterTable('task_mrs', (table) => {
    table.timestamp('polled_at', { useTz: true }).nullable();
    table.text('poll_error').nullable();
    table.json('last_evaluation').nullable();
  });
  await db.schema.alterTable('workspace_credentials', (table) => {
    table.string('base_url', 1024).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workspace_credentials', (table) => table.dropColumn('base_url'));
  await db.schema.alterTable('task_mrs', (table) => {
    table.dropColumn('last_evaluation');
    table.dropColumn('poll_error');
    table.dropColumn('polled_at');
  });
  await db.schema.alterTable('prompt_queue', (table) => {
    table.dropUnique(['coalescing_key']);
    table.dropColumn('coalescing_key');
  });
}
