import { Argument, type Command } from 'commander';
import { bashScript, commandTree, fishScript, zshScript } from '../../conventions/completion';

// `kandev completion bash|zsh|fish`: the completion script for the command tree this binary has.

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent !== null) root = root.parent;
  return root;
}

export function addCompletionCommand(program: Command): void {
  program
    .command('completion')
    .addArgument(new Argument('<shell>', 'the shell').choices(Object.keys(SCRIPTS)))
    .description('print a shell completion script (bash, zsh or fish)')
    .action((shell: keyof typeof SCRIPTS, _options: unknown, command: Command) => {
      process.stdout.write(SCRIPTS[shell](commandTree(rootOf(command))));
    });
}
