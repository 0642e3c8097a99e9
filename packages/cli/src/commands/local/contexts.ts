import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { confirm } from '../../conventions/confirm';
import {
  type ConfigFile,
  CONTEXT_NAME,
  type ContextEntry,
  ENV_NAME,
  loadConfigFile,
  saveConfigFile,
} from '../../contexts-file';
import { CliError, notFound, usage } from '../../errors';
import { cliEnv, colourAllowed } from '../../config';
import { outputOption } from '../../conventions/lists';
import { type Out, paint, stdoutOut, table } from '../../output';

// `kandev context add|use|ls|rm`: named backends in the config file (contexts-file.ts). These commands
// never talk to a backend, so they work with none running.

interface LocalCtx {
  out: Out;
  json: boolean;
  yes: boolean;
}

function localCtx(command: Command): LocalCtx {
  const options = command.optsWithGlobals<{ json?: boolean; output?: string; yes?: boolean }>();
  return {
    out: stdoutOut(colourAllowed()),
    json: options.json === true || options.output === 'json',
    yes: options.yes === true,
  };
}

function tokenText(entry: ContextEntry): string {
  if (entry.token_file !== undefined) return `file ${entry.token_file}`;
  if (entry.token_env !== undefined) return `env $${entry.token_env}`;
  return 'none';
}

function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usage(`--url is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`--url must be http(s): ${raw}`);
  return url.toString().replace(/\/+$/, '');
}

interface AddOptions {
  tokenFile?: string;
  tokenEnv?: string;
  use?: boolean;
}

function entryOf(options: AddOptions & { url: string }): ContextEntry {
  if (options.tokenFile !== undefined && options.tokenEnv !== undefined) {
    throw usage('give one token source: --token-file or --token-env');
  }
  const entry: ContextEntry = { url: checkUrl(options.url) };
  if (options.tokenFile !== undefined) {
    const file = resolve(options.tokenFile);
    if (!existsSync(file)) throw usage(`--token-file ${file} does not exist`);
    entry.token_file = file;
  }
  if (options.tokenEnv !== undefined) {
    if (!ENV_NAME.test(options.tokenEnv)) throw usage(`--token-env wants a variable name, got "${options.tokenEnv}"`);
    entry.token_env = options.tokenEnv;
  }
  return entry;
}

function existing(file: ConfigFile, name: string): ContextEntry {
  const entry = file.contexts[name];
  if (entry === undefined) throw notFound(`no context ${name} (kandev context ls)`);
  return entry;
}

export function addContextCommands(program: Command): void {
  const noun = program
    .command('context')
    .alias('contexts')
    .description('named backends (URL and token source) in $XDG_CONFIG_HOME/kandev/config.json');
  noun
    .command('add')
    .argument('<name>', 'a name: letters, digits, . _ -')
    // --url is the program's own option (accepted after the command too): read from the globals.
    .option('--token-file <file>', 'read the token from this file at each run (the path is stored, not the token)')
    .option('--token-env <VAR>', 'read the token from this environment variable at each run')
    .option('--use', 'make it the current context')
    .description('add a context: --url <url>, and where its token is read (never the token itself)')
    .action((name: string, _options: AddOptions, command: Command) => {
      const options = command.optsWithGlobals<AddOptions & { url?: string }>();
      if (options.url === undefined) throw usage("context add needs the backend's URL: --url <url>");
      if (!CONTEXT_NAME.test(name)) throw usage(`a context name is letters, digits, . _ - (at most 63), got "${name}"`);
      const entry = entryOf({ ...options, url: options.url });
      const file = loadConfigFile(cliEnv());
      if (file.contexts[name] !== undefined) throw new CliError('conflict', `context ${name} exists; rm it first`);
      file.contexts[name] = entry;
      if (options.use === true) file.current = name;
      saveConfigFile(file, cliEnv());
      process.stdout.write(
        `added context ${name} (${entry.url}, token ${tokenText(entry)})${options.use === true ? ', now current' : ''}\n`,
      );
    });
  noun
    .command('use')
    .argument('<name>')
    .description('make a context the current one (used when no --url, --token or KANDEV_* say otherwise)')
    .action((name: string) => {
      const file = loadConfigFile(cliEnv());
      existing(file, name);
      file.current = name;
      saveConfigFile(file, cliEnv());
      process.stdout.write(`current context: ${name}\n`);
    });
  outputOption(
    noun
      .command('ls')
      .description('list contexts; * marks the current one')
      .action((_options: unknown, command: Command) => {
        const ctx = localCtx(command);
        const file = loadConfigFile(cliEnv());
        const rows = Object.entries(file.contexts).map(([name, entry]) => ({
          name,
          current: name === file.current,
          ...entry,
        }));
        if (ctx.json) return ctx.out.json(rows);
        table(
          ctx.out,
          ['CURRENT', 'NAME', 'URL', 'TOKEN'],
          rows.map((row) => [row.current ? paint(ctx.out, 'green', '*') : '', row.name, row.url, tokenText(row)]),
        );
      }),
  );
  noun
    .command('rm')
    .argument('<name>')
    .option('-y, --yes', 'do not ask')
    .description('remove a context (the current one: then none is current)')
    .action(async (name: string, _options: unknown, command: Command) => {
      const file = loadConfigFile(cliEnv());
      existing(file, name);
      await confirm(localCtx(command), `remove context ${name}`);
      delete file.contexts[name];
      if (file.current === name) file.current = null;
      saveConfigFile(file, cliEnv());
      process.stdout.write(`removed context ${name}\n`);
    });
}
