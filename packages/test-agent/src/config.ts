// The only module under src/ that reads the environment (and the command line).
import { ScriptError } from './script';

export interface Config {
  /** Path of the JSON script file. */
  scriptPath: string;
}

/** `--script <file>` wins over KANDEV_TEST_AGENT_SCRIPT; neither is a ScriptError. */
export function loadConfig(
  argv: readonly string[] = process.argv.slice(2),
  env: Record<string, string | undefined> = process.env,
): Config {
  const flag = argv.indexOf('--script');
  if (flag !== -1) {
    const path = argv[flag + 1];
    if (path === undefined || path.length === 0) throw new ScriptError('--script needs a file path');
    return { scriptPath: path };
  }
  const fromEnv = env.KANDEV_TEST_AGENT_SCRIPT;
  if (fromEnv !== undefined && fromEnv.length > 0) return { scriptPath: fromEnv };
  throw new ScriptError('no script: pass --script <file> or set KANDEV_TEST_AGENT_SCRIPT');
}
