// Runs a few chains of steps at once, each chain's steps one after another, for the parts of
// `npm test` that mostly wait (the container engine, Chromium, the agent adapters) rather than
// compute. Every line a step prints is prefixed with its chain's name, so the interleaved output
// still reads; each chain stops at its first failing step, the others run to their end.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A step: a command and its arguments, run from `cwd` with `env`. */
function runStep(name, [command, args], options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
    }
    child.on('error', (err) => {
      process.stderr.write(`[${name}] ${command}: ${err.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 0 : 1)));
  });
}

/**
 * Runs `chains` (name -> steps) at once; resolves the names of the chains that failed, empty when
 * every step of every chain exited 0.
 */
export async function runChains(chains, options) {
  const outcomes = await Promise.all(
    Object.entries(chains).map(async ([name, steps]) => {
      for (const step of steps) {
        const code = await runStep(name, step, options);
        if (code !== 0) return name;
      }
      return undefined;
    }),
  );
  return outcomes.filter((name) => name !== undefined);
}
