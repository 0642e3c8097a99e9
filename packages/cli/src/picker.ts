import { emitKeypressEvents } from 'node:readline';
import { createInterface } from 'node:readline/promises';
import { CliError } from './errors';
import { type Out, paint } from './output';

// A small option picker for a terminal: arrow keys (or j/k) move, a digit jumps, Enter chooses,
// Ctrl-C or Escape gives up. The list is redrawn in place with ANSI cursor moves.

export interface PickerIo {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

export function pick(
  io: PickerIo,
  out: Out,
  labels: readonly string[],
  details: readonly string[] = [],
): Promise<number> {
  const { input, output } = io;
  let selected = 0;
  let drawn = 0;
  const draw = () => {
    if (drawn > 0) output.write(`\u001b[${drawn}A`);
    const lines = labels.map((label, index) => {
      const detail = details[index] ? paint(out, 'dim', ` — ${details[index]}`) : '';
      const text = `${index + 1}. ${label}`;
      return index === selected ? `${paint(out, 'cyan', `❯ ${text}`)}${detail}` : `  ${text}${detail}`;
    });
    output.write(`${lines.map((line) => `\u001b[2K${line}`).join('\n')}\n`);
    drawn = lines.length;
  };
  emitKeypressEvents(input);
  const wasRaw = input.isRaw;
  input.setRawMode(true);
  input.resume();
  draw();
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      input.off('keypress', onKey);
      input.setRawMode(wasRaw);
      input.pause();
      if (error === undefined) resolve(selected);
      else reject(error);
    };
    const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined) => {
      const name = key?.name;
      if ((key?.ctrl === true && name === 'c') || name === 'escape') {
        finish(new CliError('usage', 'no answer chosen'));
      } else if (name === 'up' || name === 'k') {
        selected = (selected + labels.length - 1) % labels.length;
        draw();
      } else if (name === 'down' || name === 'j') {
        selected = (selected + 1) % labels.length;
        draw();
      } else if (name === 'return' || name === 'enter') {
        finish();
      } else if (text !== undefined && /^[1-9]$/.test(text) && Number(text) <= labels.length) {
        selected = Number(text) - 1;
        draw();
      }
    };
    input.on('keypress', onKey);
  });
}

/** One line of free text from the terminal. */
export async function askText(io: PickerIo, prompt: string): Promise<string> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: true });
  try {
    return await rl.question(prompt);
  } finally {
    rl.close();
  }
}
