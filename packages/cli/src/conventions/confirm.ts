import { createInterface } from 'node:readline/promises';
import type { Ctx } from '../context';
import { usage } from '../errors';

// Destructive verbs (archive, stop, cancel, revoke, remove) ask on a terminal and need --yes
// otherwise, so a script never destroys something by a typo it cannot see.

export interface ConfirmIo {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

const terminal = (): ConfirmIo | undefined =>
  process.stdin.isTTY === true && process.stderr.isTTY === true
    ? { input: process.stdin, output: process.stderr }
    : undefined;

/** Resolves when the operator agreed (or gave --yes); otherwise throws a usage error, nothing done. */
export async function confirm(ctx: Pick<Ctx, 'yes'>, what: string, io = terminal()): Promise<void> {
  if (ctx.yes) return;
  if (io === undefined) throw usage(`${what}: not a terminal, so confirm with --yes (nothing was changed)`);
  const rl = createInterface({ input: io.input, output: io.output, terminal: true });
  let answer: string;
  try {
    answer = await rl.question(`${what}? [y/N] `);
  } finally {
    rl.close();
  }
  if (!/^y(es)?$/i.test(answer.trim())) throw usage(`${what}: not confirmed (nothing was changed)`);
}
