import type { Command } from 'commander';
import { addAuditCommand } from './actions/audit';
import { addCompletionCommand } from './local/completion';
import { addConsoleCommand } from './console';
import { addContextCommands } from './local/contexts';
import { addFollowCommand } from './follow';
import { addGrantCommands } from './grants';
import { addLaunchCommands } from './launch';
import { addMessagesCommand } from './actions/messages';
import { addPromptCommands } from './actions/prompts';
import { addQuestionCommands } from './questions';
import { addResourceCommands } from './resources';
import { addSourceCommands } from './actions/sources';
import { addStatusCommand } from './status';
import { addTokenCommands } from './actions/tokens';
import { addToolsCommand } from './tools';

// Every command, in the order `kandev --help` lists them.

export function addCommands(program: Command): void {
  addStatusCommand(program);
  addResourceCommands(program);
  addLaunchCommands(program);
  addPromptCommands(program);
  addMessagesCommand(program);
  addFollowCommand(program);
  addQuestionCommands(program);
  addGrantCommands(program);
  addSourceCommands(program);
  addToolsCommand(program);
  addTokenCommands(program);
  addAuditCommand(program);
  addConsoleCommand(program);
  addContextCommands(program);
  addCompletionCommand(program);
}
