import type { Command } from 'commander';

// `Examples:` at the end of each command's --help, by command path. A test walks the command tree and
// fails for a command with none, so a new command comes with its examples.

export const EXAMPLES: Record<string, string[]> = {
  '': ['kandev status', 'kandev tasks ls --sort newest --limit 10', 'kandev --json sessions ls --state failed'],
  status: ['kandev status', 'kandev --context prod status'],
  whoami: ['kandev whoami', 'kandev --json whoami'],
  workspaces: ['kandev workspaces ls', 'kandev workspaces create demo'],
  'workspaces ls': ['kandev workspaces ls', 'kandev workspaces ls -o json'],
  'workspaces show': ['kandev workspaces show 73b8e216'],
  'workspaces create': ['kandev workspaces create demo'],
  repos: ['kandev repos ls', 'kandev repos create https://github.com/acme/importer.git'],
  'repos ls': ['kandev repos ls --workspace 73b8e216', 'kandev repos ls --sort name -o wide'],
  'repos show': ['kandev repos show d9a0594e'],
  'repos create': [
    'kandev repos create https://github.com/acme/importer.git',
    'kandev repos create ./importer --local',
  ],
  tasks: ['kandev tasks ls', 'kandev tasks create "Fix the importer" --repo d9a0594e'],
  'tasks ls': [
    'kandev tasks ls --limit 20',
    'kandev tasks ls --state todo,in_progress --search importer -o wide',
    'kandev tasks ls --failed --sort updated',
    'kandev tasks ls --pending-question --no-autopilot --provider github',
    'kandev tasks ls --archived -o json',
  ],
  'tasks show': ['kandev tasks show af4bd4de'],
  'tasks create': ['kandev tasks create "Fix the importer" --repo d9a0594e --profile 5670a635'],
  'tasks archive': ['kandev tasks archive af4bd4de', 'kandev tasks archive af4bd4de --yes   # in a script'],
  'tasks unarchive': ['kandev tasks unarchive af4bd4de'],
  'tasks timeline': ['kandev tasks timeline af4bd4de', 'kandev tasks timeline af4bd4de --limit 50 -o json'],
  timeline: [
    'kandev timeline af4bd4de',
    'kandev timeline af4bd4de -o json | jq \'.[] | select(.kind == "tool_call")\'',
  ],
  'tasks state': ['kandev tasks state af4bd4de review', 'kandev tasks state af4bd4de done'],
  sessions: ['kandev sessions ls --state failed', 'kandev sessions resume a74e3c8b'],
  'sessions ls': [
    'kandev sessions ls --limit 10',
    'kandev sessions ls --failed -o wide',
    'kandev sessions ls --state running,waiting_for_input --sort oldest',
    'kandev sessions ls --task af4bd4de',
  ],
  'sessions show': ['kandev sessions show a74e3c8b'],
  'sessions create': ['kandev sessions create af4bd4de --executor docker'],
  'sessions stop': ['kandev sessions stop a74e3c8b', 'kandev sessions stop a74e3c8b --yes'],
  'sessions resume': ['kandev sessions resume a74e3c8b'],
  'sessions relaunch': ['kandev sessions relaunch a74e3c8b'],
  'sessions cancel': ['kandev sessions cancel a74e3c8b', 'kandev sessions cancel a74e3c8b --yes'],
  profiles: ['kandev profiles ls', 'kandev profiles create --from docs/agent-profiles/claude-agent-acp.json'],
  'profiles ls': ['kandev profiles ls', 'kandev profiles ls -o wide'],
  'profiles show': ['kandev profiles show 5670a635'],
  'profiles create': [
    'kandev profiles create echo --command node --arg agent.js --env API_KEY=…',
    'kandev profiles create --from docs/agent-profiles/gemini-cli.json --env GEMINI_API_KEY=…',
  ],
  'profiles edit': [
    'kandev profiles edit 5670a635 --permission-policy allow_all',
    'kandev profiles edit 5670a635 --env API_KEY=$NEW_KEY --unset-env OLD_KEY',
    'kandev profiles edit 5670a635 --command claude-code-acp --arg --verbose',
  ],
  'profiles rm': ['kandev profiles rm 5670a635', 'kandev profiles rm 5670a635 --yes'],
  launch: ['kandev launch af4bd4de', 'kandev launch af4bd4de --executor docker'],
  prompt: ['kandev prompt a74e3c8b "Add a test for the empty file case"'],
  prompts: ['kandev prompts ls a74e3c8b', 'kandev prompts cancel a74e3c8b 1df3c63a'],
  'prompts ls': ['kandev prompts ls a74e3c8b', 'kandev prompts ls a74e3c8b --sort newest --limit 5'],
  'prompts cancel': ['kandev prompts cancel a74e3c8b 1df3c63a', 'kandev prompts cancel a74e3c8b 1df3c63a --yes'],
  messages: ['kandev messages af4bd4de', 'kandev logs af4bd4de --tail 20', 'kandev messages af4bd4de -o json'],
  follow: ['kandev follow af4bd4de', 'kandev follow a74e3c8b --replay'],
  questions: ['kandev questions', 'kandev --json questions'],
  'questions ls': ['kandev questions ls', 'kandev --json questions ls | jq .counts'],
  answer: ['kandev answer 26c719b1', 'kandev answer 26c719b1 --option Postgres', 'kandev answer 26c719b1 --text "v2"'],
  grants: ['kandev grants af4bd4de'],
  'grants revoke': ['kandev grants revoke af4bd4de 0c4e1a2b'],
  sources: ['kandev sources ls af4bd4de', 'kandev sources add af4bd4de https://gitlab.com/acme/api.git'],
  'sources ls': ['kandev sources ls af4bd4de'],
  'sources add': [
    'kandev sources add af4bd4de d9a0594e',
    'kandev sources add af4bd4de https://gitlab.com/acme/api.git --wait',
    'kandev sources add af4bd4de ./vendored --local',
  ],
  'sources rm': ['kandev sources rm af4bd4de d9a0594e', 'kandev sources rm af4bd4de d9a0594e --yes --wait'],
  tools: ['kandev tools a74e3c8b', 'kandev --json tools a74e3c8b'],
  tokens: ['kandev tokens ls', 'kandev tokens create ci'],
  'tokens ls': ['kandev tokens ls --sort used'],
  'tokens create': [
    'kandev tokens create ci > ci-token && chmod 600 ci-token',
    'kandev tokens create ci --role operator --workspace 73b8e216 > ci-token',
    'kandev tokens create board --role viewer',
  ],
  'tokens revoke': ['kandev tokens revoke 4f2a9c1e', 'kandev tokens revoke 4f2a9c1e --yes'],
  audit: ['kandev audit', 'kandev audit --actor 4f2a9c1e --limit 20', 'kandev audit --agents --task a74e3c8b'],
  console: ['kandev console'],
  context: ['kandev context add prod --url https://kandev.example.com --token-file ~/.kandev-prod-token --use'],
  'context add': [
    'kandev context add prod --url https://kandev.example.com --token-file ~/.kandev-prod-token',
    'kandev context add ci --url http://10.0.0.5:7420 --token-env CI_KANDEV_TOKEN --use',
  ],
  'context use': ['kandev context use prod'],
  'context ls': ['kandev context ls'],
  'context rm': ['kandev context rm prod', 'kandev context rm prod --yes'],
  completion: [
    'source <(kandev completion bash)        # in ~/.bashrc',
    'source <(kandev completion zsh)         # in ~/.zshrc, after compinit',
    'kandev completion fish | source         # in ~/.config/fish/config.fish',
  ],
};

/** The command's names from the root, e.g. 'tasks ls' ('' for the root). */
export function pathOf(command: Command): string {
  const names: string[] = [];
  let at = command;
  while (at.parent !== null) {
    names.unshift(at.name());
    at = at.parent;
  }
  return names.join(' ');
}

/** Appends each command's examples to its --help. */
export function addExamples(program: Command): void {
  const visit = (command: Command) => {
    const examples = EXAMPLES[pathOf(command)];
    if (examples !== undefined) {
      command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}`);
    }
    command.commands.forEach(visit);
  };
  visit(program);
}
