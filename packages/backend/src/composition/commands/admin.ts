import { Command, CommanderError } from 'commander';
import { backendAnswers } from './rotate-secret-key';
import { type Config, ConfigError, loadConfig } from '../config';
import { backupSqlite, SqliteAdminError } from '../../platform/store/sqlite/sqlite-backup';
import { restoreSqlite } from '../../platform/store/sqlite/sqlite-restore';

// Operator commands on the backend's own data, run with the backend's environment (docs/operations.md):
//   npm run admin -- backup <file> [--force]      online, while the backend runs
//   npm run admin -- restore <backup>             with the backend stopped
// Exit codes: 0 done; 1 failed (the message says why; nothing partial is left); 2 usage or refused
// (nothing was changed).

const EXIT = { ok: 0, failed: 1, refused: 2 } as const;

/** PostgreSQL is backed up with its own tools; these commands only know the SQLite file. */
function sqliteConfig(verb: string): Config {
  const config = loadConfig();
  if (config.databaseUrl !== undefined) {
    throw new SqliteAdminError(
      `the backend runs on PostgreSQL (KANDEV_DATABASE_URL is set): ${verb} it with pg_dump / pg_restore, not this command`,
    );
  }
  return config;
}

function buildProgram(): Command {
  const program = new Command('admin')
    .description("Back up and restore the backend's SQLite database (docs/operations.md).")
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  program
    .command('backup')
    .description('copy the database to <file> (0600) with SQLite’s backup API; safe while the backend runs')
    .argument('<file>', 'the backup to write')
    .option('--force', 'replace <file> when it exists')
    .action(async (file: string, options: { force?: boolean }) => {
      const config = sqliteConfig('back up');
      const result = await backupSqlite({ dataDir: config.dataDir, target: file, force: options.force === true });
      process.stdout.write(
        `backed up ${result.source} to ${result.target} (${result.pages} pages, ${result.bytes} bytes)\n`,
      );
    });
  program
    .command('restore')
    .description('replace the database with <backup>; the backend must be stopped')
    .argument('<backup>', 'a file written by `admin backup`')
    .action(async (backup: string) => {
      const config = sqliteConfig('restore');
      if (await backendAnswers(config.http)) {
        throw new SqliteAdminError(`a backend answers on port ${config.http.port}: stop it, then restore`);
      }
      const result = restoreSqlite({ dataDir: config.dataDir, backup, now: new Date() });
      const kept =
        result.replacedKeptAt !== undefined ? `; the replaced database is kept at ${result.replacedKeptAt}` : '';
      process.stdout.write(`restored ${result.database} from ${backup}${kept}\n`);
    });
  for (const command of program.commands) command.exitOverride().showHelpAfterError('(run with --help for usage)');
  return program;
}

async function main(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.refused; // already printed
    if (error instanceof SqliteAdminError || error instanceof ConfigError) {
      process.stderr.write(`admin: ${error.message}; nothing was changed\n`);
      return EXIT.refused;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`admin: failed: ${message}\n`);
    return EXIT.failed;
  }
}

void main(process.argv).then((code) => process.exit(code));
