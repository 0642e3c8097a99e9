import { execFile } from 'node:child_process';

/** Why a git command failed: a clear message (never a token: see runGit), and git's exit code. */
export class GitCommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
    this.name = 'GitCommandError';
  }
}

/** How every git command of the backend runs: its deadline and the environment it starts from. */
export interface GitContext {
  timeoutMs: number;
  /** The base environment (PATH, HOME, proxies: config.ts picks them); no ambient GIT_* variable. */
  env: Readonly<Record<string, string>>;
}

export interface GitOptions extends GitContext {
  /** Working directory of the git process. */
  cwd?: string;
  /**
   * Configuration for this one command, passed as GIT_CONFIG_COUNT/KEY_n/VALUE_n environment
   * variables: never on the command line (`ps` shows argv) and never written to any config file.
   */
  transientConfig?: Readonly<Record<string, string>>;
  /** Strings removed from any message this command's failure produces (a token in git's stderr). */
  secrets?: readonly string[];
}

/** The base environment plus what makes git fail fast instead of prompting, and this command's config. */
function gitEnv(base: GitContext['env'], transient: Readonly<Record<string, string>> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (!key.startsWith('GIT_')) env[key] = value;
  }
  // Never wait on a terminal or an askpass helper for a password: fail at once instead.
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_ASKPASS = 'true';
  env.SSH_ASKPASS = 'true';
  env.LC_ALL = 'C';
  const entries = Object.entries(transient ?? {});
  env.GIT_CONFIG_COUNT = String(entries.length);
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

function redact(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length > 0).reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/**
 * Runs `git <args>` as a child process (execFile: no shell, arguments never parsed by one), with a
 * timeout. Resolves with trimmed stdout; rejects with a GitCommandError that quotes git's last stderr
 * lines, with the command's secrets removed.
 */
export function runGit(args: readonly string[], options: GitOptions): Promise<string> {
  const secrets = options.secrets ?? [];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd: options.cwd,
        env: gitEnv(options.env, options.transientConfig),
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 8 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout.trim());
          return;
        }
        const command = `git ${args[0] ?? ''}`;
        const timedOut = error.killed === true || error.signal === 'SIGKILL';
        const detail = stderr.trim().split('\n').slice(-3).join(' | ');
        const why = timedOut
          ? `timed out after ${options.timeoutMs} ms`
          : 'code' in error && error.code === 'ENOENT'
            ? 'git is not installed or not on PATH'
            : detail.length > 0
              ? detail
              : error.message;
        const code = typeof error.code === 'number' ? error.code : null;
        reject(new GitCommandError(redact(`${command} failed: ${why}`, secrets), code));
      },
    );
  });
}
