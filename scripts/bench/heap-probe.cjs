// Preloaded into a benchmarked daemon (`node --expose-gc -r scripts/bench/heap-probe.cjs ...`) so the
// benchmark can read its heap without any bench-only code in the product: on an IPC message
// `{ type: 'heap' }` it forces a full GC and answers `{ type: 'heap', heapUsed, rss }`.
/* global process, setImmediate */
'use strict';

if (typeof process.send === 'function' && typeof globalThis.gc === 'function') {
  const gc = globalThis.gc;
  process.on('message', (message) => {
    if (message === null || typeof message !== 'object' || message.type !== 'heap') return;
    // Twice, a turn apart: the first pass can leave objects that only weak callbacks release.
    gc();
    setImmediate(() => {
      gc();
      const { heapUsed, rss } = process.memoryUsage();
      process.send({ type: 'heap', heapUsed, rss });
    });
  });
  // The IPC channel must not keep the daemon alive: it exits on SIGTERM as it would without the probe.
  process.channel.unref();
}
