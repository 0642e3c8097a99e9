#!/usr/bin/env node
// Fills a kandev database with synthetic work for load tests (docs/operations.md), through the stores'
// own write paths (the built backend's modules, multi-row inserts where a store has them):
//   node scripts/fill-database.mjs (--data-dir <dir> | --database-url <url>) [--tasks 100000]
//        [--workspaces 100] [--messages 1000000] [--events 2000000] [--sessions <tasks/10>]
//        [--questions <sessions>]
// Workspaces, tasks (created over the last 6 days), ended sessions (one per task with one), their
// questions (1 in 20 pending), messages (each with its message.created event) and further events
// (session.state_changed, queue.changed) until the log holds --events. Migrates first; meant for an
// empty database (ids are fixed: a second run into the same database fails on the first duplicate).
// Build first (`npm run build`): it loads packages/backend/dist.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const backend = createRequire(join(root, 'packages/backend/package.json'));
const dist = (path) => backend(join(root, 'packages/backend/dist', path));

const DAY_MS = 24 * 3_600_000;
// Rows written per transaction: large enough for throughput, small enough to bound memory.
const CHUNK = 5_000;

/** The full size of the data-growth benchmark: months of a busy team's work. */
export const FULL_SIZE = { workspaces: 100, tasks: 100_000, messages: 1_000_000, events: 2_000_000 };

/** Sizes with the derived defaults filled in (sessions: 1 per 10 tasks; questions: 1 per session). */
export function withDefaults(size) {
  const sessions = size.sessions ?? Math.floor(size.tasks / 10);
  return { ...size, sessions, questions: size.questions ?? sessions };
}

const pad = (n) => String(n).padStart(7, '0');

/** Writes `count` items, CHUNK per transaction, each chunk built by `make(from, to)` and written by `write`. */
async function inChunks(uow, count, make, write, progress) {
  for (let from = 0; from < count; from += CHUNK) {
    const items = make(from, Math.min(count, from + CHUNK));
    await uow.transaction((stores) => write(stores, items));
    progress(Math.min(count, from + CHUNK));
  }
}

/**
 * Seeds the database of `dataDir` (SQLite) or `databaseUrl` (PostgreSQL) with `size`; resolves the
 * counts written. `prefix` starts every id (to seed a second set beside a first); `log(line)` hears progress.
 */
export async function fillDatabase({
  dataDir,
  databaseUrl,
  size,
  prefix = '',
  now = new Date(),
  log = () => undefined,
}) {
  const { createDatabase, migrateToLatest } = dist('platform/store/database.js');
  const { createUnitOfWork } = dist('platform/store/unit-of-work.js');
  const { SecretBox } = dist('platform/secrets/secret-box.js');
  const { SecretKey } = dist('platform/secrets/secret-key.js');
  const sizes = withDefaults(size);
  const db = createDatabase(dataDir ?? '', databaseUrl);
  try {
    await migrateToLatest(db);
    // The seeded tables hold no secrets; the box is only what the stores are built with.
    const uow = createUnitOfWork(db, new SecretBox(new SecretKey(randomBytes(32), 'seed')));
    const start = now.getTime() - 6 * DAY_MS;
    const span = 6 * DAY_MS - 3_600_000;
    // Task i: workspace i mod W, created in order over the span.
    const taskAt = (i) => new Date(start + Math.floor((i * span) / sizes.tasks)).toISOString();
    const later = (at, ms) => new Date(Date.parse(at) + ms).toISOString();
    const workspaceOf = (i) => `${prefix}ws-${pad(i % sizes.workspaces)}`;
    const counter = (what, total) => (done) =>
      log(`${what}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')}`);

    await uow.transaction(async (stores) => {
      for (let w = 0; w < sizes.workspaces; w++) {
        await stores.workspaces.insert({
          id: `${prefix}ws-${pad(w)}`,
          name: `workspace ${w}`,
          createdAt: new Date(start).toISOString(),
        });
      }
    });
    const states = ['todo', 'in_progress', 'review', 'done'];
    await inChunks(
      uow,
      sizes.tasks,
      (from, to) =>
        Array.from({ length: to - from }, (_, k) => {
          const i = from + k;
          return {
            id: `${prefix}task-${pad(i)}`,
            workspaceId: workspaceOf(i),
            parentId: null,
            title: `task ${i}: ${i % 7 === 0 ? 'fix' : 'add'} the ${i % 13 === 0 ? 'parser' : 'report'}`,
            description: null,
            state: states[i % states.length],
            autopilot: false,
            agentProfileId: null,
            archivedAt: null,
            createdAt: taskAt(i),
            updatedAt: later(taskAt(i), 60_000),
          };
        }),
      (stores, tasks) => stores.tasks.insertMany(tasks),
      counter('tasks', sizes.tasks),
    );
    // Session s belongs to task s * (tasks / sessions): spread over every workspace.
    const taskOfSession = (s) => Math.floor((s * sizes.tasks) / Math.max(1, sizes.sessions));
    await inChunks(
      uow,
      sizes.sessions,
      (from, to) => Array.from({ length: to - from }, (_, k) => from + k),
      async (stores, indexes) => {
        for (const s of indexes) {
          const t = taskOfSession(s);
          const at = later(taskAt(t), 120_000);
          const launchConfig = {
            sessionId: `${prefix}sess-${pad(s)}`,
            taskId: `${prefix}task-${pad(t)}`,
            workspaceId: workspaceOf(t),
            surface: 'kanban_task',
            questionCapability: 'user',
            providers: [],
            revision: 1,
            ownsTaskTitle: false,
            mcpToken: '',
            systemPrompt: 'seeded',
            agent: null,
          };
          await stores.sessions.insert({
            id: launchConfig.sessionId,
            taskId: launchConfig.taskId,
            state: s % 10 === 0 ? 'failed' : 'completed',
            executor: 'local',
            agentctlAddress: null,
            agentctlReplica: null,
            revision: 1,
            launchConfig,
            appliedRevision: 1,
            appliedProviders: [],
            refreshError: null,
            refreshAttempts: 0,
            refreshedAt: null,
            mcpTokenHash: randomBytes(32).toString('hex'),
            surface: 'kanban_task',
            lastError: s % 10 === 0 ? 'seeded failure' : null,
            acpSessionId: null,
            createdAt: at,
            updatedAt: later(at, 600_000),
          });
        }
      },
      counter('sessions', sizes.sessions),
    );
    await inChunks(
      uow,
      sizes.questions,
      (from, to) => Array.from({ length: to - from }, (_, k) => from + k),
      async (stores, indexes) => {
        for (const q of indexes) {
          const s = q % Math.max(1, sizes.sessions);
          const t = taskOfSession(s);
          const at = later(taskAt(t), 180_000 + q);
          const pending = q % 20 === 0;
          await stores.questions.insert({
            id: `${prefix}question-${pad(q)}`,
            taskId: `${prefix}task-${pad(t)}`,
            sessionId: `${prefix}sess-${pad(s)}`,
            callId: `${prefix}call-${pad(q)}`,
            kind: 'user',
            questions: [{ id: 'q1', prompt: 'Which approach?', options: [{ label: 'A' }, { label: 'B' }] }],
            context: null,
            state: pending ? 'pending' : 'answered',
            answers: pending ? null : [{ question_index: 0, question_id: 'q1', option: 'A' }],
            answeredBy: pending ? null : 'operator',
            answerDelivery: pending ? null : 'waiting_call',
            closedReason: null,
            createdAt: at,
            answeredAt: pending ? null : later(at, 60_000),
            expiresAt: later(now.toISOString(), 30 * DAY_MS),
          });
        }
      },
      counter('questions', sizes.questions),
    );
    // Message m belongs to task m mod N, a few minutes after it was created.
    await inChunks(
      uow,
      sizes.messages,
      (from, to) =>
        Array.from({ length: to - from }, (_, k) => {
          const m = from + k;
          const t = m % sizes.tasks;
          const round = Math.floor(m / sizes.tasks);
          return {
            id: `${prefix}msg-${pad(m)}`,
            taskId: `${prefix}task-${pad(t)}`,
            sessionId: null,
            type: 'message',
            author: round % 2 === 0 ? 'operator' : 'agent',
            content: `message ${m}: ${'lorem ipsum '.repeat(8)}`,
            metadata: {},
            createdAt: later(taskAt(t), 240_000 + round * 1_000),
          };
        }),
      (stores, messages) => stores.messages.insertMany(messages),
      counter('messages', sizes.messages),
    );
    // Each session and each question wrote one event already.
    const extra = Math.max(0, sizes.events - sizes.messages - sizes.sessions - sizes.questions);
    await inChunks(
      uow,
      extra,
      (from, to) =>
        Array.from({ length: to - from }, (_, k) => {
          const e = from + k;
          const t = e % sizes.tasks;
          const at = later(taskAt(t), 300_000 + Math.floor(e / sizes.tasks) * 1_000);
          return e % 2 === 0
            ? { type: 'queue.changed', taskId: `${prefix}task-${pad(t)}`, sessionId: null, data: { depth: e % 3 }, at }
            : {
                type: 'task.updated',
                taskId: `${prefix}task-${pad(t)}`,
                sessionId: null,
                data: { task_id: `${prefix}task-${pad(t)}` },
                at,
              };
        }),
      (stores, events) => stores.events.appendMany(events),
      counter('events', extra),
    );
    // On PostgreSQL autovacuum vacuums and analyzes a database in use; a freshly filled one gets it now,
    // so that its plans (statistics, index-only scans; CREATE DATABASE … TEMPLATE copies both) are those
    // of a database used for months.
    if (databaseUrl !== undefined) await db.raw('VACUUM ANALYZE');
    return sizes;
  } finally {
    await db.destroy();
  }
}

const USAGE =
  'usage: node scripts/fill-database.mjs (--data-dir <dir> | --database-url <url>) [--tasks 100000] ' +
  '[--workspaces 100] [--messages 1000000] [--events 2000000] [--sessions N] [--questions N]';

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      ...Object.fromEntries(
        ['tasks', 'workspaces', 'messages', 'events', 'sessions', 'questions'].map((name) => [
          name,
          { type: 'string' },
        ]),
      ),
    },
    strict: true,
  });
  if ((values['data-dir'] === undefined) === (values['database-url'] === undefined)) throw new Error(USAGE);
  const size = { ...FULL_SIZE };
  for (const name of ['tasks', 'workspaces', 'messages', 'events', 'sessions', 'questions']) {
    if (values[name] === undefined) continue;
    const value = Number(values[name]);
    if (!Number.isSafeInteger(value) || value < (name === 'tasks' || name === 'workspaces' ? 1 : 0)) {
      throw new Error(
        `--${name} must be a whole number${name === 'tasks' || name === 'workspaces' ? ' >= 1' : ''}\n${USAGE}`,
      );
    }
    size[name] = value;
  }
  const started = Date.now();
  const sizes = await fillDatabase({
    dataDir: values['data-dir'],
    databaseUrl: values['database-url'],
    size,
    log: (line) => process.stderr.write(`\r${line}          `),
  });
  process.stderr.write('\n');
  console.log(`seeded ${JSON.stringify(sizes)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`fill-database: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
