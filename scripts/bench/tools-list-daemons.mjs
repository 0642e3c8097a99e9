// The daemons of the tools-list benchmark, each a child process on 127.0.0.1 that prints a ready line:
// the real built agentctl, the SDK McpServer baseline and the raw HTTP floor (tools-list-servers.mjs).
// With `heapProbe`, a daemon runs with --expose-gc and heap-probe.cjs on an IPC channel (see readHeap).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { readReadyLine } from './bench-processes.mjs';
import { createSessions, readHeap, readMemory } from './tools-list-clients.mjs';

const START_TIMEOUT_MS = 15_000;

const childEnv = (extra = {}) => ({ PATH: process.env.PATH ?? '', ...extra });

export function startDaemons(scope, root) {
  const agentctlMain = join(root, 'packages/agentctl/dist/main.js');
  const servers = join(root, 'scripts/bench/tools-list-servers.mjs');
  const probeArgs = ['--expose-gc', '-r', join(root, 'scripts/bench/heap-probe.cjs')];

  /** Spawns a node child, stopped at cleanup, and resolves its first `{"event":"ready"}` stdout line. */
  async function startChild(label, args, env, heapProbe) {
    // A pipe on stdin lets the comparison servers notice that this process died; agentctl ignores it.
    const stdio = heapProbe ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'];
    const child = spawn(process.execPath, heapProbe ? [...probeArgs, ...args] : args, { cwd: root, env, stdio });
    scope.children.add(child);
    scope.cleanups.push(() => scope.stopChild(child));
    const stderr = [];
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr.push(line);
      if (stderr.length > 50) stderr.shift();
    });
    try {
      const ready = await readReadyLine(child, START_TIMEOUT_MS);
      return { child, ready, heap: () => readHeap(child), memory: () => readMemory(child) };
    } catch (err) {
      throw new Error(`${label}: ${err.message}\n${stderr.join('\n')}`, { cause: err });
    }
  }

  return {
    async agentctl({ heapProbe }) {
      const controlToken = randomBytes(24).toString('hex');
      const { ready, heap, memory } = await startChild(
        'agentctl',
        [agentctlMain],
        childEnv({
          KANDEV_AGENTCTL_TOKEN: controlToken,
          KANDEV_AGENTCTL_GRPC_PORT: '0',
          KANDEV_AGENTCTL_MCP_PORT: '0',
          // The default cap (1024 connections in all) would refuse part of phase 2's connections.
          KANDEV_MCP_MAX_CONNECTIONS: '100000',
          LOG_LEVEL: heapProbe ? 'warn' : 'info',
        }),
        heapProbe,
      );
      return {
        heap,
        memory,
        createSessions: (configs) => createSessions(ready.grpcPort, controlToken, configs),
        mcpUrl: (state) => `http://127.0.0.1:${ready.mcpPort}${state.mcp_path}`,
      };
    },

    async baseline(config, { heapProbe }) {
      const args = [servers, 'baseline', JSON.stringify({ ...config, mcpToken: '' })];
      const { ready, heap, memory } = await startChild('baseline', args, childEnv(), heapProbe);
      return { heap, memory, mcpUrl: `http://127.0.0.1:${ready.port}/mcp` };
    },

    async floor() {
      const { ready } = await startChild('floor', [servers, 'floor'], childEnv(), false);
      const url = `http://127.0.0.1:${ready.port}/`;
      // The same fetch (undici, keep-alive) the SDK client transport uses, with a tools/list-sized request.
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      return {
        async call() {
          const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          if (!response.ok) throw new Error(`floor server answered ${response.status}`);
          await response.json();
        },
      };
    },
  };
}
