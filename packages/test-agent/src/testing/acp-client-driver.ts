// Test support, built to dist/testing/: a real ACP client (the SDK's ClientApp) in its own process, for
// callers that cannot load the ESM-only SDK (jest runs CommonJS without vm modules).
//
//   node dist/testing/acp-client-driver.js -- <agent command> [args...]
//
// It spawns the agent and speaks ACP to it over the agent's stdio. Its own stdin takes JSON lines
//   {"id": n, "request": {"method": "...", "params": {...}}}   -> {"id": n, "result": ...} | {"id": n, "error": {...}}
//   {"notify": {"method": "...", "params": {...}}}
// and its stdout reports, in arrival order, {"event": "session_update", "params": {...}} and finally
// {"event": "agent_exit", "code": n | null, "signal": s | null}. The agent's stderr passes through.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk';

type Command =
  { id: number; request: { method: string; params?: unknown } } | { notify: { method: string; params?: unknown } };

function emit(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function errorOf(err: unknown): { code: number | null; message: string; data?: unknown } {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; message?: unknown; data?: unknown };
    return {
      code: typeof e.code === 'number' ? e.code : null,
      message: typeof e.message === 'string' ? e.message : JSON.stringify(err),
      ...(e.data === undefined ? {} : { data: e.data }),
    };
  }
  return { code: null, message: String(err) };
}

function main(): void {
  const separator = process.argv.indexOf('--');
  const [command, ...args] = separator === -1 ? [] : process.argv.slice(separator + 1);
  if (command === undefined) {
    process.stderr.write('usage: acp-client-driver -- <agent command> [args...]\n');
    process.exit(2);
  }
  const agentProcess = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const app = client({ name: 'kandev-acp-client-driver' }).onNotification(methods.client.session.update, ({ params }) =>
    emit({ event: 'session_update', params }),
  );
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(agentProcess.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(agentProcess.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  agentProcess.on('exit', (code, signal) => {
    emit({ event: 'agent_exit', code, signal });
    process.exit(0);
  });
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const command = JSON.parse(line) as Command;
    if ('notify' in command) {
      void connection.agent.notify(command.notify.method, command.notify.params).catch((err: unknown) => {
        process.stderr.write(`driver: notify failed: ${errorOf(err).message}\n`);
      });
      return;
    }
    connection.agent.request(command.request.method, command.request.params).then(
      (result) => emit({ id: command.id, result }),
      (err: unknown) => emit({ id: command.id, error: errorOf(err) }),
    );
  });
  // Our caller went away: close the agent's stdin so it ends its connection and exits.
  lines.on('close', () => agentProcess.stdin.end());
}

main();
