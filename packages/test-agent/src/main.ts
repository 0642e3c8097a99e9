// Composition root: config -> script (exit 2 when bad) -> ACP agent on stdin/stdout (ndjson).
import { Readable, Writable } from 'node:stream';
import { type AnyMessage, ndJsonStream } from '@agentclientprotocol/sdk';
import { loadConfig } from './config';
import { createStderrLog } from './log';
import { type Script, ScriptError } from './script';
import { loadScript } from './script-file';
import { createScriptedAgent } from './scripted-agent';

/** Exit code for a missing or invalid script (distinct from a crash, 1). */
const EXIT_BAD_SCRIPT = 2;

function scriptOrExit(): Script {
  try {
    return loadScript(loadConfig().scriptPath);
  } catch (err) {
    const message = err instanceof ScriptError ? err.message : `cannot load script: ${String(err)}`;
    process.stderr.write(`test-agent: ${message}\n`);
    process.exit(EXIT_BAD_SCRIPT);
  }
}

function main(): void {
  const script = scriptOrExit();
  const log = createStderrLog();
  const { app, observeIncoming, closeAll } = createScriptedAgent({
    script,
    log,
    exit: (code) => {
      log('exit step', { code });
      process.exit(code);
    },
  });
  const wire = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  // The agent sees each message as it is read, in wire order, before the SDK dispatches it.
  const observed = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      observeIncoming(message);
      controller.enqueue(message);
    },
  });
  const connection = app.connect({ writable: wire.writable, readable: wire.readable.pipeThrough(observed) });
  log('ready', { turns: script.turns.length, hasDefault: script.default !== undefined });
  // The client closing stdin ends the connection; then close MCP sessions and leave.
  void connection.closed.then(async () => {
    await closeAll();
    process.exit(0);
  });
}

main();
