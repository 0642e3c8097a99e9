// The reads an operator makes, timed against one running backend (live-update-backend.mjs) whose
// database holds the probe (data-growth-stores.mjs): each read is a REST call whose answer is checked,
// or an event stream opened until its head frame.
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PROBE_PREFIX } from './data-growth-stores.mjs';

const WORKSPACE = `${PROBE_PREFIX}ws-0000000`;
const TASK = `${PROBE_PREFIX}task-0000000`;
const PAGE = 50;
// The inbox and the session list: the probe holds 20 pending questions and 20 failed sessions.
const SHORT_PAGE = 20;
const STREAM_TIMEOUT_MS = 10_000;

/** Fails unless the call answered 200 with a list of at least `min` items under `key`. */
async function getList(api, path, key, min) {
  const response = await api.request('GET', path);
  const items = response.body?.[key];
  if (response.status !== 200 || !Array.isArray(items) || items.length < min) {
    throw new Error(`GET ${path} -> ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
  }
}

/**
 * Opens GET /api/events (resuming after `lastEventId`), reads frames until `until(text)` holds, closes.
 * Resolves everything read.
 */
export function readStream(backend, path, lastEventId, until) {
  return new Promise((resolve, reject) => {
    const req = request(`${backend.url}${path}`, {
      headers: { authorization: `Bearer ${backend.api.token}`, 'last-event-id': String(lastEventId) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`GET ${path}: no end within ${STREAM_TIMEOUT_MS} ms`));
    }, STREAM_TIMEOUT_MS);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer);
        req.destroy();
        reject(new Error(`GET ${path} -> ${res.statusCode}`));
        return;
      }
      let text = '';
      res.on('data', (chunk) => {
        text += chunk.toString('utf8');
        if (!until(text)) return;
        clearTimeout(timer);
        req.destroy();
        resolve(text);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}

/** The reads, each `{ name, call }`; every call checks its answer. */
export function operatorReads(backend) {
  const { api } = backend;
  return [
    {
      name: 'board first page',
      call: () => getList(api, `/api/tasks?workspace_id=${WORKSPACE}&limit=${PAGE}`, 'tasks', PAGE),
    },
    {
      name: "a task's timeline page",
      call: () => getList(api, `/api/tasks/${TASK}/timeline?limit=${PAGE}`, 'entries', 2),
    },
    {
      name: 'questions inbox',
      call: () => getList(api, `/api/questions?state=pending&limit=${SHORT_PAGE}`, 'questions', SHORT_PAGE),
    },
    {
      name: 'event stream resume from an old id',
      // From the first id: the task's events over the whole log, up to the head frame.
      call: async () => {
        const text = await readStream(backend, `/api/events?task_id=${TASK}`, 1, (t) =>
          t.includes('event: stream.head'),
        );
        if (!text.includes('event: message.created'))
          throw new Error(`the replay holds no message: ${text.slice(0, 300)}`);
      },
    },
    {
      name: 'sessions filtered',
      call: () => getList(api, `/api/sessions?state=failed&limit=${SHORT_PAGE}`, 'sessions', SHORT_PAGE),
    },
  ];
}

/** The oldest event id the log retains (1 when nothing was pruned), from the reset a resume from 1 gets. */
export async function oldestRetained(backend) {
  const text = await readStream(backend, `/api/events?task_id=${TASK}`, 1, (t) =>
    /event: (reset|stream\.head)/.test(t),
  );
  const reset = /event: reset\ndata: (.*)\n/.exec(text);
  return reset === null ? 1 : Number(JSON.parse(reset[1]).data.oldest_id);
}

/** `warmup` untimed then `runs` timed calls of each read, interleaved call by call; samples per read. */
export async function timeReads(reads, { warmup, runs }) {
  const samples = reads.map(() => []);
  for (let run = 0; run < warmup + runs; run++) {
    for (const [i, read] of reads.entries()) {
      const started = performance.now();
      await read.call();
      if (run >= warmup) samples[i].push(performance.now() - started);
    }
  }
  return samples;
}
