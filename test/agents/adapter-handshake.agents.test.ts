// The real ACP adapters the example profiles pin (docs/agent-profiles), installed at exactly those
// versions by scripts/agent-adapter-tests.mjs: each starts and completes the ACP `initialize` handshake
// with no credentials (a fresh HOME, no API key in its environment), driven by the official ACP SDK
// client (in the test agent's driver process, since jest cannot load the ESM-only SDK), with the
// parameters agentctl sends.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { useCleanup } from '../helpers/cleanup';
import { REPO_ROOT, stopProcess, tempDir } from '../helpers/processes';

const ADAPTERS_DIR = process.env.AGENT_ADAPTERS_DIR ?? join(REPO_ROOT, 'node_modules/.cache/agent-adapters');
const DRIVER_MAIN = join(REPO_ROOT, 'packages/test-agent/dist/testing/acp-client-driver.js');
const PROFILES_DIR = join(REPO_ROOT, 'docs/agent-profiles');
/** Same rule as scripts/lib/agent-adapters.mjs: npx runs `<package>@<x.y.z>`. */
const PINNED_SPEC = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(\d+\.\d+\.\d+)$/;

interface Adapter {
  readonly profile: string;
  readonly pkg: string;
  readonly version: string;
  readonly args: string[];
}

function pinnedAdapters(): Adapter[] {
  return readdirSync(PROFILES_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const profile = JSON.parse(readFileSync(join(PROFILES_DIR, file), 'utf8')) as { command: string; args: string[] };
      if (profile.command !== 'npx') return [];
      const at = profile.args.findIndex((arg) => !arg.startsWith('-'));
      const match = PINNED_SPEC.exec(profile.args[at] ?? '');
      if (match === null) throw new Error(`${file}: npx must run <package>@<x.y.z>`);
      return [
        { profile: file.replace(/\.json$/, ''), pkg: match[1]!, version: match[2]!, args: profile.args.slice(at + 1) },
      ];
    });
}

/** The adapter's executable under ADAPTERS_DIR, after checking the installed version is the pinned one. */
function installedBin(adapter: Adapter): string {
  const manifestPath = join(ADAPTERS_DIR, 'node_modules', adapter.pkg, 'package.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`${adapter.pkg} is not installed in ${ADAPTERS_DIR}: run node scripts/agent-adapter-tests.mjs`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string; bin: Record<string, string> };
  expect(manifest.version).toBe(adapter.version);
  const names = Object.keys(manifest.bin);
  expect(names).toHaveLength(1); // what `npx <package>` runs
  return join(ADAPTERS_DIR, 'node_modules/.bin', names[0]!);
}

interface DriverLine {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
  event?: string;
  code?: number | null;
  signal?: string | null;
}

/** What agentctl sends (packages/agentctl/src/agents/acp-client.ts): no fs, no terminal. */
const INITIALIZE = {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  clientInfo: { name: 'kandev-agentctl', version: '0.1.0' },
};

const adapters = pinnedAdapters();

describe('current ACP agent adapters', () => {
  const cleanup = useCleanup();

  test('the example profiles pin the Claude Code, Codex and Gemini CLI adapters', () => {
    expect(adapters.map((a) => [a.profile, a.pkg])).toEqual([
      ['claude-agent-acp', '@agentclientprotocol/claude-agent-acp'],
      ['codex-acp', '@agentclientprotocol/codex-acp'],
      ['gemini-cli', '@google/gemini-cli'],
    ]);
  });

  test.each(adapters)('$profile: $pkg@$version answers initialize without credentials', async (adapter) => {
    const bin = installedBin(adapter);
    const home = tempDir(cleanup, 'kandev-adapter-home-');
    let stderr = '';
    const child = spawn(process.execPath, [DRIVER_MAIN, '--', bin, ...adapter.args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanup.defer(() => stopProcess(child, { graceMs: 5_000 }));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const arrived = new Map<string, (line: DriverLine) => void>();
    const next = (key: string) => new Promise<DriverLine>((resolve) => arrived.set(key, resolve));
    createInterface({ input: child.stdout }).on('line', (text) => {
      const line = JSON.parse(text) as DriverLine;
      arrived.get(line.event ?? `id:${line.id}`)?.(line);
    });

    const reply = next('id:1');
    child.stdin.write(`${JSON.stringify({ id: 1, request: { method: 'initialize', params: INITIALIZE } })}\n`);
    const answer = await reply;
    if (answer.result === undefined) throw new Error(`initialize failed: ${answer.error?.message}\n${stderr}`);
    expect(answer.result).toMatchObject({
      protocolVersion: 1,
      agentInfo: { version: adapter.version },
      agentCapabilities: { mcpCapabilities: { http: true } },
    });

    // The agent ends on its own once its client goes away (what agentctl relies on at stop).
    const exit = next('agent_exit');
    child.stdin.end();
    expect(await exit).toMatchObject({ code: 0, signal: null });
  });
});
