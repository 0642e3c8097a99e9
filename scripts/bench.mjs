#!/usr/bin/env node
// `npm run bench -- [<name>] [<args>]`: runs one benchmark (or all), after installing what is missing
// and building (incremental), as `npm start` does: a fresh clone benchmarks its own code.
// Benchmarks measure against a baseline run side by side; results are recorded in docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TARGET_LINE } from './bench/targets.mjs';
import { ensureBuilt, root } from './lib/workspace.mjs';

const BENCHMARKS = ['tools-list', 'live-update'];
// The long part, `npm run bench -- scale` (or one of them by name): not in the default run.
const SCALE = ['data-growth', 'scale'];
const KNOWN = [...BENCHMARKS, ...SCALE];

const argv = process.argv.slice(2);
const named = argv[0] !== undefined && !argv[0].startsWith('-');
const selected = named ? (argv[0] === 'scale' ? SCALE : [argv[0]]) : BENCHMARKS;
const args = named ? argv.slice(1) : argv;

const unknown = selected.filter((name) => !KNOWN.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(', ')} (known: ${KNOWN.join(', ')}; \`scale\` runs the last two)`);
  process.exit(2);
}

ensureBuilt();

// Forwarded, so that the benchmark (not this dispatcher) decides how to stop and stops its servers.
let running;
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => running?.kill(signal));

// Every benchmark's target lines, repeated at the end: the run's verdict in one place.
const targets = [];
for (const name of selected) {
  running = spawn(process.execPath, [join(root, 'scripts/bench', `${name}.mjs`), ...args], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: running.stdout });
  lines.on('line', (line) => {
    console.log(line);
    if (TARGET_LINE.test(line)) targets.push(line);
  });
  const [[code, signal]] = await Promise.all([once(running, 'exit'), once(lines, 'close')]);
  if (code !== 0) {
    console.error(`benchmark ${name} failed (${signal ?? `exit ${code}`})`);
    process.exit(code ?? 1);
  }
}

console.log('');
for (const line of targets) console.log(line);
const failed = targets.filter((line) => line.endsWith(' FAIL')).length;
console.log(`${targets.length - failed} of ${targets.length} targets pass`);
process.exitCode = failed === 0 ? 0 : 1;
