import { InvalidArgumentError, type Command, Option } from 'commander';
import { outputOption, positive } from './lists';

// Lists the backend sorts, filters and pages itself (tasks, sessions, questions, the timeline): the
// CLI names the server's order and filters and stops reading at --limit, never filtering pages here.

export interface ServerListOptions {
  limit?: number;
  sort?: string;
}

/** -o, --limit and --sort over the server's orders (`{cli name: query value}`; the first is the default). */
export function serverListOptions(command: Command, orders: Record<string, string>): Command {
  const names = Object.keys(orders);
  outputOption(command)
    .option('--limit <n>', 'show at most n (reads only the pages it needs)', positive)
    .addOption(new Option('--sort <order>', `the order (default ${names[0] ?? ''})`).choices(names));
  return command;
}

/** A yes/no filter: `--failed` is true, `--no-failed` false, neither leaves it out of the query. */
export function flagQuery(value: boolean | undefined): 'true' | 'false' | undefined {
  return value === undefined ? undefined : value ? 'true' : 'false';
}

/** A comma-separated list of allowed words (the server takes several states at once). */
export function wordsOf(allowed: readonly string[]): (value: string) => string {
  return (value) => {
    const words = value.split(',').map((word) => word.trim());
    const wrong = words.filter((word) => !allowed.includes(word));
    if (wrong.length > 0) throw new InvalidArgumentError(`not one of ${allowed.join(', ')}: ${wrong.join(', ')}`);
    return words.join(',');
  };
}
