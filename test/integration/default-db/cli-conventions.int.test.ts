// The CLI's conventions as a user meets them, with the built binary: --version, completion scripts
// that load in real shells and complete the command tree, contexts in a 0600 config file, a quiet exit
// when the reader of its output goes away (`| head -1`), and errors as JSON under --json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_BIN, type CliEnv, type CliResult, cliJson, runCli } from '../../helpers/cli';
import { useCleanup } from '../../helpers/cleanup';
import { REPO_ROOT, startBackend } from '../../helpers/processes';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

describe('kandev CLI conventions', () => {
  const cleanup = useCleanup();

  function scratch(): string {
    const dir = mkdtempSync(join(tmpdir(), 'kandev-cli-conv-'));
    cleanup.defer(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  test('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string };
    expect(await runCli({ url: 'http://127.0.0.1:1' }, ['--version'])).toEqual({
      code: 0,
      stdout: `${pkg.version}\n`,
      stderr: '',
    });
  });

  test('completion scripts load in bash (and zsh, fish when installed) and complete commands and choices', async () => {
    const dir = scratch();
    const target = { url: 'http://127.0.0.1:1' };
    const bash = await runCli(target, ['completion', 'bash']);
    expect(bash.code).toBe(0);
    writeFileSync(join(dir, 'kandev.bash'), bash.stdout);
    expect(spawnSync('bash', ['-n', join(dir, 'kandev.bash')]).status).toBe(0);
    const complete = (...words: string[]) =>
      spawnSync('bash', [
        '--norc',
        '-c',
        `source ${join(dir, 'kandev.bash')}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _kandev; echo "\${COMPREPLY[*]}"`,
      ])
        .stdout.toString()
        .trim();
    const top = complete('kandev', '').split(' ');
    expect(top).toEqual(
      expect.arrayContaining([
        'tasks',
        'sessions',
        'messages',
        'logs',
        'prompts',
        'sources',
        'tokens',
        'context',
        'completion',
      ]),
    );
    expect(complete('kandev', 'sessions', '').split(' ')).toEqual(
      expect.arrayContaining(['stop', 'resume', 'relaunch', 'cancel']),
    );
    expect(complete('kandev', '--url', 'http://x', 'task', 'ls', '--so')).toBe('--sort');
    expect(complete('kandev', 'tasks', 'ls', '-o', '')).toBe('table wide json');
    expect(complete('kandev', 'completion', '')).toBe('bash zsh fish');

    if (has('zsh')) {
      const zsh = await runCli(target, ['completion', 'zsh']);
      writeFileSync(join(dir, 'kandev.zsh'), zsh.stdout);
      expect(spawnSync('zsh', ['-n', join(dir, 'kandev.zsh')]).status).toBe(0);
      const run = spawnSync('zsh', [
        '-c',
        `autoload -Uz compinit && compinit -u -d ${join(dir, 'zcompdump')}; source ${join(dir, 'kandev.zsh')}; compadd() { shift; print -r -- "$*"; }; words=(kandev tokens ''); CURRENT=3; _kandev`,
      ]);
      expect(run.stdout.toString().trim()).toBe('ls create revoke');
    }
    if (has('fish')) {
      const fish = await runCli(target, ['completion', 'fish']);
      writeFileSync(join(dir, 'kandev.fish'), fish.stdout);
      expect(spawnSync('fish', ['-n', join(dir, 'kandev.fish')]).status).toBe(0);
      const run = spawnSync('fish', ['-c', `source ${join(dir, 'kandev.fish')}; complete -C 'kandev prompts '`]);
      expect(
        run.stdout
          .toString()
          .split('\n')
          .map((line) => line.split('\t')[0]),
      ).toEqual(expect.arrayContaining(['ls', 'cancel']));
    }
  });

  test('contexts: add, use and ls in a 0600 file without the token; the current one is used; flags win', async () => {
    const daemon = await startBackend(cleanup);
    const home = scratch();
    const config = join(home, 'config');
    const outside = scratch(); // no data/api-token above it: only the context can say where to go
    const bare = (env: Record<string, string> = {}): CliEnv => ({
      url: '',
      env: { XDG_CONFIG_HOME: config, ...env },
      cwd: outside,
    });
    // envOf always sets KANDEV_URL; an empty one counts as not given.
    const tokenFile = join(daemon.dataDir, 'api-token');

    const added = await runCli(bare(), [
      'context',
      'add',
      'local',
      '--url',
      daemon.ready.url,
      '--token-file',
      tokenFile,
      '--use',
    ]);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const file = join(config, 'kandev', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'kandev')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).not.toContain(daemon.apiToken);
    await runCli(bare(), ['context', 'add', 'by-env', '--url', daemon.ready.url, '--token-env', 'MY_KANDEV_TOKEN']);

    const listed = await cliJson<{ name: string; current: boolean }[]>(bare(), ['context', 'ls']);
    expect(listed.map((c) => [c.name, c.current])).toEqual([
      ['local', true],
      ['by-env', false],
    ]);
    const workspace = await cliJson<{ id: string }>(bare(), ['workspaces', 'create', 'via-context']);
    expect((await cliJson<{ id: string }[]>(bare(), ['workspaces', 'ls'])).map((w) => w.id)).toEqual([workspace.id]);

    expect((await runCli(bare(), ['context', 'use', 'by-env'])).stdout).toBe('current context: by-env\n');
    const unset = await runCli(bare(), ['workspaces', 'ls']);
    expect(unset).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('$MY_KANDEV_TOKEN, which is not set') as unknown,
    });
    expect((await runCli(bare({ MY_KANDEV_TOKEN: daemon.apiToken }), ['workspaces', 'ls'])).code).toBe(0);
    // A flag or variable naming the backend wins over the current context (whose token is not sent).
    const elsewhere = await runCli(bare({ KANDEV_URL: 'http://127.0.0.1:1' }), ['workspaces', 'ls']);
    expect(elsewhere.code).toBe(6);

    expect((await runCli(bare(), ['context', 'use', 'nope'])).code).toBe(3);
    expect((await runCli(bare(), ['context', 'add', 'local', '--url', daemon.ready.url])).code).toBe(5);
    expect((await runCli(bare(), ['context', 'add', 'x', '--url', 'ftp://a'])).code).toBe(2);
    expect((await runCli(bare(), ['context', 'rm', 'by-env'])).code).toBe(2);
    expect((await runCli(bare(), ['context', 'rm', '--yes', 'by-env'])).stdout).toBe('removed context by-env\n');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ current: null, contexts: { local: {} } });
  });

  test('a reader that goes away (| head -1) ends the CLI quietly with 0; --json errors are one JSON object', async () => {
    const daemon = await startBackend(cleanup);
    const kandev: CliEnv = { url: daemon.ready.url, token: daemon.apiToken };
    const workspace = await cliJson<{ id: string }>(kandev, ['workspaces', 'create', 'w']);
    // Well over a pipe's buffer (64 KiB), so the CLI is still writing when the reader closes.
    for (let i = 0; i < 160; i += 1) {
      await fetch(`${daemon.ready.url}/api/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${daemon.apiToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workspace_id: workspace.id, title: `${i} ${'x'.repeat(480)}` }),
      });
    }
    const child = spawn(process.execPath, [CLI_BIN, 'tasks', 'ls'], {
      env: { PATH: process.env.PATH ?? '', KANDEV_URL: kandev.url, KANDEV_API_TOKEN: daemon.apiToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const firstLine = await new Promise<string>((resolve) =>
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8').split('\n')[0] ?? '')),
    );
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(firstLine).toMatch(/^ID\s+STATE/);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });

    // The same through a shell pipe, with pipefail: the CLI's own status is 0 too.
    const piped = spawnSync(
      'bash',
      ['--norc', '--noprofile', '-o', 'pipefail', '-c', `"${process.execPath}" "${CLI_BIN}" --json tasks ls | head -1`],
      {
        env: { PATH: process.env.PATH ?? '', KANDEV_URL: kandev.url, KANDEV_API_TOKEN: daemon.apiToken },
      },
    );
    expect({ status: piped.status, stdout: piped.stdout.toString(), stderr: piped.stderr.toString() }).toEqual({
      status: 0,
      stdout: '[\n',
      stderr: '',
    });

    const errors: [string[], number, string][] = [
      [['--json', 'tasks', 'show', 'no-such-task'], 3, 'not_found'],
      [['tasks', 'frobnicate', '--json'], 2, 'usage'],
      [['tasks', 'ls', '--limit', '0', '-o', 'json'], 2, 'usage'],
      [['--json', 'tasks', 'archive', 'no-such-task'], 2, 'usage'],
    ];
    for (const [args, exit, code] of errors) {
      const result: CliResult = await runCli(kandev, args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: exit, stdout: '' });
      expect(JSON.parse(result.stderr)).toEqual({ error: { code, message: expect.any(String) as unknown } });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const down = await runCli({ ...kandev, url: 'http://127.0.0.1:1' }, ['--json', 'status']);
    expect(down.code).toBe(6);
    expect(JSON.parse(down.stderr)).toMatchObject({ error: { code: 'unavailable' } });
  });
});
