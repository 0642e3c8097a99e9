import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { usage } from './errors';

// Named backends ("contexts") in `$XDG_CONFIG_HOME/kandev/config.json` (default ~/.config/kandev). A
// context holds a URL and where its token comes from (a file path or an environment variable's name),
// never a token itself, so the file can be shown or copied without leaking one. The directory is 0700
// and the file 0600 all the same: it maps which token file opens which backend.

export const CONTEXT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const ContextEntrySchema = z
  .object({
    url: z.string().min(1),
    token_file: z.string().min(1).optional(),
    token_env: z.string().regex(ENV_NAME).optional(),
  })
  .strict();
export type ContextEntry = z.infer<typeof ContextEntrySchema>;

const ConfigFileSchema = z
  .object({
    current: z.string().nullable().default(null),
    contexts: z.record(z.string().regex(CONTEXT_NAME), ContextEntrySchema).default({}),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** `$XDG_CONFIG_HOME/kandev`, else `~/.config/kandev` (a relative XDG_CONFIG_HOME is ignored, as the spec says). */
export function configDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg.startsWith('/') ? xdg : join(env.HOME ?? homedir(), '.config');
  return join(base, 'kandev');
}

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

/** The config file, or an empty one when there is none; a file the CLI cannot read is a usage error. */
export function loadConfigFile(env: NodeJS.ProcessEnv): ConfigFile {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { current: null, contexts: {} };
    throw usage(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw usage(`${path} is not JSON: fix or remove it`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw usage(
      `${path}: ${issue === undefined ? 'invalid' : `${issue.path.join('.') || '(root)'}: ${issue.message}`}`,
    );
  }
  return parsed.data;
}

/** Writes the whole file: a 0600 temporary file renamed over the old one, in a 0700 directory. */
export function saveConfigFile(file: ConfigFile, env: NodeJS.ProcessEnv): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const path = configPath(env);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
