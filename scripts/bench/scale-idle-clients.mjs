// A child process of the scale benchmark holding idle MCP connections (initialize, initialized, GET
// stream open), so that 10,000 connections per daemon fit one process's file descriptors (and the
// timed client's event loop does not carry them). Driven over IPC:
//   { type: 'open', targets: [{ url, headers }] }  -> { type: 'opened', count } | { type: 'error', message }
//   { type: 'status' }                             -> { type: 'status', open, dropped, notified }
// `notified` counts list_changed notifications received over all streams. Exits when the IPC channel closes.
import { inBatches, openIdleConnection } from './tools-list-clients.mjs';

const CONNECT_CONCURRENCY = 32;
const LIST_CHANGED = 'notifications/tools/list_changed';

const connections = [];
let dropped = 0;
let notified = 0;

/**
 * A keep-alive socket the server closes (its idle timeout) just as a request goes out on it fails with
 * ECONNRESET or "socket hang up" before the server saw the request: a client's race, tried again.
 */
async function withRetry(connect, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect();
    } catch (err) {
      const reset = err?.code === 'ECONNRESET' || err?.message === 'socket hang up';
      if (!reset || attempt >= attempts) throw err;
    }
  }
}

async function open(targets) {
  const opened = await inBatches(targets, CONNECT_CONCURRENCY, async ({ url, headers }) => {
    let tail = '';
    const connection = await withRetry(() =>
      openIdleConnection(url, headers, {
        onData(chunk) {
          const text = tail + chunk.toString('utf8');
          const parts = text.split(LIST_CHANGED);
          tail = parts.pop().slice(-LIST_CHANGED.length);
          notified += parts.length;
        },
      }),
    );
    connection.onDropped(() => (dropped += 1));
    return connection;
  });
  connections.push(...opened);
  return opened.length;
}

process.on('message', (message) => {
  if (message?.type === 'open') {
    open(message.targets).then(
      (count) => process.send({ type: 'opened', count }),
      (err) => process.send({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
  } else if (message?.type === 'status') {
    process.send({ type: 'status', open: connections.length, dropped, notified });
  }
});
process.on('disconnect', () => {
  for (const connection of connections) connection.close();
  process.exit(0);
});
