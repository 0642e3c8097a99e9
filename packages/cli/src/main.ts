import { Command, CommanderError } from 'commander';
import { addConsoleCommand } from './commands/console';
import { addFollowCommand } from './commands/follow';
import { addGrantCommands } from './commands/grants';
import { addLaunchCommands } from './commands/launch';
import { addQuestionCommands } from './commands/questions';
import { addResourceCommands } from './commands/resources';
import { addStatusCommand } from './commands/status';
import { addToolsCommand } from './commands/tools';
import { DEFAULT_URL } from './config';
import { CliError, EXIT_CODES } from './errors';

// The `kandev` command line (docs/cli.md). Every failure ends as one stderr line and an exit code
// chosen by its kind (errors.ts).

const EXIT_HELP = `
Exit codes: 0 ok, 1 unexpected, 2 usage or bad input (the backend's 400), 3 not found, 4 auth (401/403),
5 conflict (409), 6 backend unreachable or failing (5xx). See docs/cli.md.`;

export function buildProgram(): Command {
  const program = new Command('kandev')
    .description('Operate a kandev backend: workspaces, repositories, tasks, sessions, questions, live events.')
    .option('--url <url>', `the backend (env KANDEV_URL, default ${DEFAULT_URL})`)
    .option('--token <token>', 'the API token (env KANDEV_API_TOKEN or KANDEV_API_TOKEN_FILE, else data/api-token)')
    .option('--json', 'print JSON (reads; create prints the created object)')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_HELP)
    .exitOverride();
  addStatusCommand(program);
  addResourceCommands(program);
  addLaunchCommands(program);
  addFollowCommand(program);
  addQuestionCommands(program);
  addGrantCommands(program);
  addToolsCommand(program);
  addConsoleCommand(program);
  for (const command of allCommands(program)) command.exitOverride().showHelpAfterError('(run with --help for usage)');
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}

/** Parses and runs; resolves the exit code (never throws). */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; every other commander error is a usage error (already printed).
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`kandev: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(
      `kandev: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT_CODES.unexpected;
  }
}

export function main(argv: readonly string[]): void {
  void runCli(argv).then((code) => {
    process.exitCode = code;
  });
}
