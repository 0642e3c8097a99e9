import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { Logger } from '../../logger/logger';

// A checkpoint folds the WAL back into the database file and fsyncs both, which takes far longer than
// a commit. Left to SQLite it runs inside the commit that crosses 1000 WAL pages, on the event loop
// (better-sqlite3 is synchronous), and the request behind that commit waits for the fsync (the slowest
// requests of docs/benchmarks.md were those). The backend turns that off on its connection and
// checkpoints from a worker thread with its own connection instead (docs/operations.md). A PASSIVE
// checkpoint never blocks the writer; the fsync waits in the worker, not in a request.

/** How often the worker looks for commits to fold back (one checkpoint per period at most). */
export const CHECKPOINT_INTERVAL_MS = 500;

/** SQLite's own default, put back when the worker stops on its own. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;

// Plain CommonJS run by the worker (eval: the same code from src under jest and from dist). It says
// 'ready' once its connection is open, then checkpoints only when another connection committed since
// its last look (data_version moved); any message stops it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
let seen = db.pragma('data_version', { simple: true });
parentPort.postMessage('ready');
const timer = setInterval(() => {
  const version = db.pragma('data_version', { simple: true });
  if (version === seen) return;
  seen = version;
  db.pragma('wal_checkpoint(PASSIVE)');
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface CheckpointOptions {
  filename: string;
  busyTimeoutMs: number;
  logger: Logger;
  intervalMs?: number;
  /** The better-sqlite3 module the worker loads (tests name one that fails). */
  driver?: string;
}

/** Background checkpoints of one SQLite database; `stop` ends them (before the final checkpoint). */
export interface BackgroundCheckpoints {
  stop(): Promise<void>;
}

/**
 * Starts the worker and, once its connection is open, turns SQLite's automatic checkpoint off on `db`'s
 * connection (its pool holds one). A worker that cannot start, or exits on its own later, leaves the
 * automatic checkpoint on: the WAL never grows without bound. Undefined when the worker did not start.
 */
export async function startBackgroundCheckpoints(
  db: Knex,
  options: CheckpointOptions,
): Promise<BackgroundCheckpoints | undefined> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver: options.driver ?? require.resolve('better-sqlite3'),
      filename: options.filename,
      busyTimeoutMs: options.busyTimeoutMs,
      intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
    },
  });
  worker.unref();
  worker.on('error', (error) => options.logger.error({ err: error }, 'background checkpoints failed'));
  const started = await new Promise<boolean>((resolve) => {
    worker.once('message', () => resolve(true));
    worker.once('exit', () => resolve(false));
  });
  if (!started) {
    options.logger.warn('background checkpoints did not start: SQLite checkpoints automatically');
    return undefined;
  }
  await db.raw('PRAGMA wal_autocheckpoint = 0');
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      if (stopping) {
        resolve();
        return;
      }
      options.logger.warn('background checkpoints stopped: SQLite checkpoints automatically again');
      db.raw(`PRAGMA wal_autocheckpoint = ${AUTOMATIC_CHECKPOINT_PAGES}`).then(
        () => resolve(),
        (error: unknown) => {
          options.logger.error({ err: error }, 'could not turn the automatic checkpoint back on');
          resolve();
        },
      );
    });
  });
  return {
    async stop() {
      stopping = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}
