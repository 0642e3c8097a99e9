import type { Command } from 'commander';

// Shell completion scripts generated from the commander tree itself, so a new command or option
// completes without anyone editing a script. Each script walks the words typed so far to a command
// path ("tasks ls"), skipping options and their values, then offers that path's subcommands, or its
// options after a dash, or an option's choices after the option.

interface OptionInfo {
  flags: string[];
  takesValue: boolean;
  choices: string[];
}

export interface CommandNode {
  /** Canonical names from the root, e.g. ['tasks', 'ls']. */
  path: string[];
  names: string[];
  description: string;
  options: OptionInfo[];
  /** An argument's fixed choices (`completion <shell>`, `tasks state <task> <state>`). */
  values: string[];
  children: CommandNode[];
}

function optionsOf(command: Command): OptionInfo[] {
  return command.options.map((option) => ({
    flags: [option.short, option.long].filter((flag): flag is string => flag !== undefined),
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? [],
  }));
}

export function commandTree(command: Command, path: string[] = [], inherited: OptionInfo[] = []): CommandNode {
  const own = optionsOf(command);
  // The root's options (--url, --json, …) are accepted after any subcommand too.
  const global = path.length === 0 ? own : inherited;
  const help: OptionInfo = { flags: ['-h', '--help'], takesValue: false, choices: [] };
  const version: OptionInfo = { flags: ['-V', '--version'], takesValue: false, choices: [] };
  return {
    path,
    names: [command.name(), ...command.aliases()],
    description: command.description(),
    // --version is handled before parsing (main.ts), so it is not among the root's options.
    options: path.length === 0 ? [...own, help, version] : [...own, ...global, help],
    values: command.registeredArguments.flatMap((argument) => argument.argChoices ?? []),
    children: command.commands.map((child) => commandTree(child, [...path, child.name()], global)),
  };
}

export function flatten(node: CommandNode): CommandNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

const words = (list: readonly string[]) => list.join(' ');
const key = (node: CommandNode) => node.path.join(' ');
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Shell `case` arms shared by bash and zsh (their case syntax is the same). */
function caseArms(nodes: CommandNode[]): { node: string; canon: string; choices: string } {
  const node = nodes
    .map((n) => {
      const subs = [...n.children.flatMap((child) => child.names), ...n.values];
      const flags = n.options.flatMap((option) => option.flags);
      const valued = n.options.filter((option) => option.takesValue).flatMap((option) => option.flags);
      return `    ${quote(key(n))}) _kandev_subs=${quote(words(subs))}; _kandev_opts=${quote(words(flags))}; _kandev_vopts=${quote(words(valued))} ;;`;
    })
    .join('\n');
  const canon = nodes
    .flatMap((n) =>
      n.children.flatMap((child) =>
        child.names.map((name) => `    ${quote(`${key(n)}/${name}`)}) _kandev_next=${quote(child.path.join(' '))} ;;`),
      ),
    )
    .join('\n');
  const choices = nodes
    .flatMap((n) =>
      n.options
        .filter((option) => option.choices.length > 0)
        .flatMap((option) =>
          option.flags.map(
            (flag) => `    ${quote(`${key(n)}/${flag}`)}) _kandev_choices=${quote(words(option.choices))} ;;`,
          ),
        ),
    )
    .join('\n');
  return { node, canon, choices };
}

/** The helper functions both bash and zsh run: path → subcommands/options, name → canonical path. */
function sharedFunctions(nodes: CommandNode[]): string {
  const arms = caseArms(nodes);
  return `_kandev_node() {
  _kandev_subs=''; _kandev_opts=''; _kandev_vopts=''
  case "$1" in
${arms.node}
  esac
}
_kandev_canon() {
  _kandev_next=''
  case "$1/$2" in
${arms.canon}
  esac
}
_kandev_choice() {
  _kandev_choices=''
  case "$1/$2" in
${arms.choices}
  esac
}
# Sets _kandev_path from the words before the cursor (given as arguments).
_kandev_walk() {
  _kandev_path=''
  local skip=0 word
  for word in "$@"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$word" in
      --*=*) continue ;;
      -*) _kandev_node "$_kandev_path"
          case " $_kandev_vopts " in *" $word "*) skip=1 ;; esac
          continue ;;
    esac
    _kandev_canon "$_kandev_path" "$word"
    if [ -n "$_kandev_next" ]; then _kandev_path="$_kandev_next"; fi
  done
}`;
}

export function bashScript(root: CommandNode): string {
  return `# kandev completion for bash: source <(kandev completion bash)  (generated from the command tree)
${sharedFunctions(flatten(root))}
_kandev() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  _kandev_walk "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  _kandev_choice "$_kandev_path" "$prev"
  if [ -n "$_kandev_choices" ]; then
    COMPREPLY=($(compgen -W "$_kandev_choices" -- "$cur"))
    return
  fi
  _kandev_node "$_kandev_path"
  case "$cur" in
    -*) COMPREPLY=($(compgen -W "$_kandev_opts" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -W "$_kandev_subs" -- "$cur")) ;;
  esac
}
complete -F _kandev kandev
`;
}

export function zshScript(root: CommandNode): string {
  return `#compdef kandev
# kandev completion for zsh: source <(kandev completion zsh) after compinit  (generated from the command tree)
${sharedFunctions(flatten(root))}
_kandev() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  _kandev_walk "\${(@)words[2,CURRENT-1]}"
  _kandev_choice "$_kandev_path" "$prev"
  if [ -n "$_kandev_choices" ]; then
    compadd -- \${=_kandev_choices}
    return
  fi
  _kandev_node "$_kandev_path"
  case "$cur" in
    -*) compadd -- \${=_kandev_opts} ;;
    *) compadd -- \${=_kandev_subs} ;;
  esac
}
compdef _kandev kandev
`;
}

const fishQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function fishScript(root: CommandNode): string {
  const nodes = flatten(root);
  const nodeArms = nodes
    .map((n) => {
      const valued = n.options.filter((option) => option.takesValue).flatMap((option) => option.flags);
      return `    case ${fishQuote(key(n))}\n      echo ${words(valued.map(fishQuote)) || "''"}`;
    })
    .join('\n');
  const canonArms = nodes
    .flatMap((n) =>
      n.children.flatMap((child) =>
        child.names.map(
          (name) => `    case ${fishQuote(`${key(n)}/${name}`)}\n      echo ${fishQuote(child.path.join(' '))}`,
        ),
      ),
    )
    .join('\n');
  const completions = nodes.flatMap((n) => {
    const at = `-n ${fishQuote(`__kandev_at ${fishQuote(key(n))}`)}`;
    const subs = n.children.map(
      (child) => `complete -c kandev -f ${at} -a ${fishQuote(words(child.names))} -d ${fishQuote(child.description)}`,
    );
    if (n.values.length > 0) subs.push(`complete -c kandev -f ${at} -a ${fishQuote(words(n.values))}`);
    const options = n.options.map((option) => {
      const flags = option.flags
        .map((flag) => (flag.startsWith('--') ? `-l ${fishQuote(flag.slice(2))}` : `-s ${fishQuote(flag.slice(1))}`))
        .join(' ');
      const value =
        option.choices.length > 0 ? ` -x -a ${fishQuote(words(option.choices))}` : option.takesValue ? ' -r' : '';
      return `complete -c kandev -f ${at} ${flags}${value}`;
    });
    return [...subs, ...options];
  });
  return `# kandev completion for fish: kandev completion fish | source  (generated from the command tree)
function __kandev_valued
  switch $argv[1]
${nodeArms}
  end
end
function __kandev_canon
  switch "$argv[1]/$argv[2]"
${canonArms}
  end
end
function __kandev_path
  set -l words (commandline -opc)
  set -e words[1]
  set -l kpath ''
  set -l skip 0
  for word in $words
    if test $skip = 1
      set skip 0
      continue
    end
    switch $word
      case '--*=*'
        continue
      case '-*'
        if contains -- $word (__kandev_valued "$kpath")
          set skip 1
        end
        continue
    end
    set -l next (__kandev_canon "$kpath" $word)
    if test -n "$next"
      set kpath $next
    end
  end
  echo $kpath
end
function __kandev_at
  set -l here (__kandev_path)
  test "$argv[1]" = "$here"
end
complete -c kandev -f
${completions.join('\n')}
`;
}
