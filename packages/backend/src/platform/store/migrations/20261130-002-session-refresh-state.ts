import type { Knex } from 'knex';
import { z } from 'zod';

// Live provider updates: sessions.revision + launch_config stay the DESIRED (derived) state; these
// columns record what agentctl acknowledged and how the last refresh went.

const StoredProvidersSchema = z.object({ providers: z.array(z.string()) });

function providersOf(launchConfig: unknown): string[] | null {
  try {
    const raw: unknown = typeof launchConfig === 'string' ? JSON.parse(launchConfig) : launchConfig;
    const parsed = StoredProvidersSchema.safeParse(raw);
    return parsed.success ? parsed.data.providers : null;
  } catch {
    return null;
  }
}

/** Sessions already running were acknowledged at their launch revision. */
async function backfillRunning(db: Knex): Promise<void> {
  const rows: { id: string; revision: number; launch_config: unknown }[] = await db('sessions')
    .where({ state: 'running' })
    .select('id', 'revision', 'launch_config');
  for (const row of rows) {
    const providers = providersOf(row.launch_config);
    await db('sessions')
      .where({ id: row.id })
      .update({
        applied_revision: row.revision,
        applied_providers: providers === null ? null : JSON.stringify(providers),
      });
  }
}

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('sessions', (table) => {
    table.integer('applied_revision').notNullable().defaultTo(0);
    table.json('applied_providers').nullable();
    table.text('refresh_error').nullable();
    table.integer('refresh_attempts').notNullable().defaultTo(0);
    table.timestamp('refreshed_at', { useTz: true }).nullable();
  });
  await db.schema.alterTable('task_repositories', (table) => {
    table.index(['batch_id']);
  });
  await backfillRunning(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('task_repositories', (table) => {
    table.dropIndex(['batch_id']);
  });
  await db.schema.alterTable('sessions', (table) => {
    for (const column of [
      'applied_revision',
      'applied_providers',
      'refresh_error',
      'refresh_attempts',
      'refreshed_at',
    ]) {
      table.dropColumn(column);
    }
  });
}
