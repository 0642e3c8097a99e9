import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type ConfigFile, type ContextEntry, configPath, loadConfigFile } from './contexts-file';
import { usage } from './errors';

// Where the backend is and how to authenticate, resolved once per run. The token is never printed:
// error messages name only where it came from.

export const DEFAULT_URL = 'http://127.0.0.1:7420';
export const TOKEN_FILE_NAME = 'api-token';

export interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
  context?: string;
}

/** https://no-color.org: any non-empty NO_COLOR turns colour off; so does a dumb terminal. */
export function colourAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb';
}

export interface ResolvedConfig {
  url: string;
  token: string | undefined;
  /** Where the token came from (for messages; never the token itself). */
  tokenSource: string;
}

function readToken(file: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw usage(
      `cannot read the API token from ${what} (${file}): ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  const token = text.trim();
  if (token.length === 0) throw usage(`the API token file ${file} is empty`);
  return token;
}

/** `data/api-token` in `start` or the nearest directory above it that has one (like git finds .git). */
export function findDataDirToken(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, 'data', TOKEN_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usage(`--url / KANDEV_URL is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`--url must be http(s): ${raw}`);
  return url.toString().replace(/\/+$/, '');
}

/** A context's token: read from its file, or from its environment variable, at each run. */
function contextToken(name: string, entry: ContextEntry, env: NodeJS.ProcessEnv): { token?: string; source: string } {
  if (entry.token_file !== undefined) {
    return { token: readToken(entry.token_file, `context ${name}`), source: `context ${name} (${entry.token_file})` };
  }
  if (entry.token_env !== undefined) {
    const value = env[entry.token_env]?.trim();
    if (value === undefined || value === '')
      throw usage(`context ${name} reads its token from $${entry.token_env}, which is not set`);
    return { token: value, source: `context ${name} ($${entry.token_env})` };
  }
  return { source: `context ${name} (no token source)` };
}

/** The context this run uses: --context / KANDEV_CONTEXT, else the current one unless flags or env say where to go. */
function chosenContext(
  options: GlobalOptions,
  env: NodeJS.ProcessEnv,
  file: () => ConfigFile,
): { name: string; entry: ContextEntry } | undefined {
  const named = options.context ?? (env.KANDEV_CONTEXT === '' ? undefined : env.KANDEV_CONTEXT);
  const explicit = [
    options.url,
    options.token,
    env.KANDEV_URL,
    env.KANDEV_API_TOKEN,
    env.KANDEV_API_TOKEN_FILE,
    env.KANDEV_DATA_DIR,
  ];
  if (named === undefined && explicit.some((value) => value !== undefined && value !== '')) return undefined;
  const config = file();
  const name = named ?? config.current ?? undefined;
  if (name === undefined) return undefined;
  const entry = config.contexts[name];
  if (entry === undefined) {
    throw usage(
      `no context ${name} in ${configPath(env)}${named === undefined ? ' (the current one): kandev context use <name>' : ''}`,
    );
  }
  return { name, entry };
}

/**
 * URL: --url, KANDEV_URL, the context's, the default. Token: --token, KANDEV_API_TOKEN, KANDEV_API_TOKEN_FILE,
 * `<KANDEV_DATA_DIR>/api-token` when KANDEV_DATA_DIR is set, the context's token source, else (no context)
 * the nearest `data/api-token` from the working directory up. The context is --context / KANDEV_CONTEXT, or
 * the current one when none of those flags or variables is given. No token at all is allowed here: the
 * backend answers 401 with a clear message.
 */
export function resolveConfig(
  options: GlobalOptions,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  file: () => ConfigFile = () => loadConfigFile(env),
): ResolvedConfig {
  const context = chosenContext(options, env, file);
  const envUrl = env.KANDEV_URL === '' ? undefined : env.KANDEV_URL;
  const url = normaliseUrl(options.url ?? envUrl ?? context?.entry.url ?? DEFAULT_URL);
  if (options.token !== undefined && options.token.trim() !== '') {
    return { url, token: options.token.trim(), tokenSource: '--token' };
  }
  if (env.KANDEV_API_TOKEN !== undefined && env.KANDEV_API_TOKEN.trim() !== '') {
    return { url, token: env.KANDEV_API_TOKEN.trim(), tokenSource: 'KANDEV_API_TOKEN' };
  }
  if (env.KANDEV_API_TOKEN_FILE !== undefined && env.KANDEV_API_TOKEN_FILE !== '') {
    const file = env.KANDEV_API_TOKEN_FILE;
    return { url, token: readToken(file, 'KANDEV_API_TOKEN_FILE'), tokenSource: file };
  }
  if (env.KANDEV_DATA_DIR !== undefined && env.KANDEV_DATA_DIR !== '') {
    const file = resolve(cwd, env.KANDEV_DATA_DIR, TOKEN_FILE_NAME);
    return { url, token: readToken(file, 'KANDEV_DATA_DIR'), tokenSource: file };
  }
  if (context !== undefined) {
    const { token, source } = contextToken(context.name, context.entry, env);
    return { url, token, tokenSource: source };
  }
  const found = findDataDirToken(cwd);
  if (found !== undefined) return { url, token: readToken(found, 'the data dir'), tokenSource: found };
  return { url, token: undefined, tokenSource: 'none (no --token, KANDEV_API_TOKEN or data/api-token found)' };
}

/** The process environment, for modules that may not read it themselves (the contexts file's home). */
export function cliEnv(): NodeJS.ProcessEnv {
  return process.env;
}
