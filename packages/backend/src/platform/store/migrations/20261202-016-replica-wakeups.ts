import type { Knex } from 'knex';

// Wake-ups across replicas (docs/replicas.md#wake-ups-across-replicas): an operator question records
// which backend process holds its tool call (`held_by`, that process's replica id). An answer reaching
// another replica asks whether the holder is alive: alive, the holder's waiter gets the answer through a
// signal; gone (or null: a row from before this migration), the answer is queued as a late prompt.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('questions', (table) => {
    table.string('held_by').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('questions', (table) => {
    table.dropColumn('held_by');
  });
}
