import { readFileSync } from 'node:fs';
import { parseScript, type Script, ScriptError } from './script';

/** Reads and validates a script file; a ScriptError names the file and the problems. */
export function loadScript(path: string): Script {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ScriptError(`cannot read script ${path}: ${reason}`, { cause: err });
  }
  try {
    return parseScript(text);
  } catch (err) {
    if (err instanceof ScriptError) throw new ScriptError(`bad script ${path}: ${err.message}`, { cause: err });
    throw err;
  }
}
