import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { addCommands } from './commands';
import { DEFAULT_URL } from './config';
import { CliError, EXIT_CODES, type ErrorKind, errorJson } from './errors';
import { addExamples } from './conventions/examples';

// The `kandev` command line (docs/cli.md). Every failure ends as one stderr line (with --json, one JSON
// object) and an exit code chosen by its kind (errors.ts).

const EXIT_HELP = `
Version: kandev --version (or -V), alone.
Exit codes: 0 ok, 1 unexpected, 2 usage or bad input (the backend's 400), 3 not found, 4 auth (401/403),
5 conflict (409), 6 backend unreachable or failing (5xx). See docs/cli.md.`;

function version(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}

export function buildProgram(): Command {
  const program = new Command('kandev')
    .description('Operate a kandev backend: workspaces, repositories, tasks, sessions, questions, live events.')
    .option('--url <url>', `the backend (env KANDEV_URL, default ${DEFAULT_URL})`)
    .option('--token <token>', 'the API token (env KANDEV_API_TOKEN or KANDEV_API_TOKEN_FILE, else data/api-token)')
    .option('--context <name>', 'a context from `kandev context ls` (env KANDEV_CONTEXT, default the current one)')
    .option('--json', 'print JSON (reads; create prints the created object; errors as one JSON object on stderr)')
    .addHelpText('after', EXIT_HELP);
  addCommands(program);
  for (const command of [program, ...allCommands(program)]) {
    command.exitOverride().showHelpAfterError('(run with --help for usage)');
  }
  addExamples(program);
  return program;
}

/** --json or -o json anywhere before `--`: errors are then JSON too, including commander's usage errors. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  // `answer -o <label>` is its --option: there `-o json` chooses an option named json.
  const outputFlag = !args.includes('answer');
  return args.some(
    (arg, index) =>
      arg === '--json' ||
      arg === '--output=json' ||
      (outputFlag && arg === '-ojson') ||
      ((arg === '--output' || (outputFlag && arg === '-o')) && args[index + 1] === 'json'),
  );
}

function fail(json: boolean, kind: ErrorKind, message: string): number {
  process.stderr.write(json ? errorJson(kind, message) : `kandev: ${message}\n`);
  return EXIT_CODES[kind];
}

/** Parses and runs; resolves the exit code (never throws). */
export async function runCli(argv: readonly string[]): Promise<number> {
  // Only as the whole command line: a registered --version would be taken from anywhere, even from
  // `profiles create --arg --version`, which passes it on to an agent.
  const [first, ...rest] = argv.slice(2);
  if ((first === '--version' || first === '-V') && rest.length === 0) {
    process.stdout.write(`${version()}\n`);
    return EXIT_CODES.ok;
  }
  const json = wantsJson(argv.slice(2));
  const program = buildProgram();
  if (json) {
    // Commander's own usage errors become the JSON object below instead of its text.
    for (const command of [program, ...allCommands(program)]) {
      command.configureOutput({ outputError: () => undefined }).showHelpAfterError(false);
    }
  }
  try {
    await program.parseAsync([...argv]);
    return EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; every other commander error is a usage error.
      if (error.exitCode === 0) return EXIT_CODES.ok;
      return json ? fail(true, 'usage', error.message.replace(/^error: /, '')) : EXIT_CODES.usage;
    }
    if (error instanceof CliError) return fail(json, error.kind, error.message);
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return fail(json, 'unexpected', `unexpected error: ${json && error instanceof Error ? error.message : text}`);
  }
}

/** A reader that went away (`kandev … | head -1`) ends the run quietly: nobody is left to tell. */
function quietOnEpipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_CODES.ok);
    throw error;
  });
}

export function main(argv: readonly string[]): void {
  quietOnEpipe(process.stdout);
  quietOnEpipe(process.stderr);
  void runCli(argv).then((code) => {
    process.exitCode = code;
  });
}
