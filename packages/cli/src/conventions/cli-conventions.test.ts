import type { Command } from 'commander';
import { bashScript, commandTree, fishScript, flatten, zshScript } from './completion';
import { EXAMPLES, pathOf } from './examples';
import { buildProgram, wantsJson } from '../main';
import { matchPrefix } from './resolve-id';

function everyCommand(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...everyCommand(child)]);
}

describe('the command tree', () => {
  const program = buildProgram();
  const commands = everyCommand(program);

  test('every command has examples in its --help', () => {
    const missing = [program, ...commands].map(pathOf).filter((path) => EXAMPLES[path] === undefined);
    expect(missing).toEqual([]);
    const help = program.commands.find((c) => c.name() === 'tasks')?.commands.find((c) => c.name() === 'ls');
    let text = '';
    help?.configureOutput({ writeOut: (chunk) => (text += chunk) }).outputHelp();
    expect(text).toContain('Examples:\n  $ kandev tasks ls --limit 20');
  });

  test('no example names a command that does not exist', () => {
    const paths = new Set([program, ...commands].map(pathOf));
    expect(Object.keys(EXAMPLES).filter((path) => !paths.has(path))).toEqual([]);
  });

  test.each([
    ['bash', bashScript],
    ['zsh', zshScript],
    ['fish', fishScript],
  ])('the %s script names every command and alias', (_shell, script) => {
    const text = script(commandTree(program));
    const nodes = flatten(commandTree(program));
    expect(nodes).toHaveLength(commands.length + 1);
    for (const command of commands) {
      for (const name of [command.name(), ...command.aliases()]) expect(text).toContain(name);
      for (const option of command.options) expect(text).toContain(option.long?.replace(/^--/, '') ?? '');
    }
  });
});

describe('--json errors', () => {
  test.each([
    [['--json', 'tasks', 'ls'], true],
    [['tasks', 'ls', '-o', 'json'], true],
    [['tasks', 'ls', '--output=json'], true],
    [['tasks', 'ls', '-o', 'wide'], false],
    [['prompt', 'x', '--', '--json'], false],
    [['answer', 'q', '-o', 'json'], false],
  ])('%j → %s', (argv, json) => expect(wantsJson(argv)).toBe(json));
});

describe('id prefixes', () => {
  const candidates = [
    { id: 'ab12', label: 'one' },
    { id: 'ab34', label: 'two' },
    { id: 'cd56', label: 'three' },
  ];
  test('a unique prefix is the id; an exact id wins; no match leaves it to the backend', () => {
    expect(matchPrefix('task', 'c', candidates)).toBe('cd56');
    expect(matchPrefix('task', 'ab12', candidates)).toBe('ab12');
    expect(matchPrefix('task', 'zz', candidates)).toBeUndefined();
  });
  test('an ambiguous prefix is a usage error naming the candidates', () => {
    expect(() => matchPrefix('task', 'ab', candidates)).toThrow(
      /ambiguous; it matches:\n {2}ab12 {2}one\n {2}ab34 {2}two/,
    );
  });
});
