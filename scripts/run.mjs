#!/usr/bin/env node
// The two quick-start commands. Needs only Node (a line in package.json's `engines`) and npm: pnpm
// (pinned in package.json's `packageManager`) is run through npx, dependencies are installed when
// missing or stale, native modules rebuilt when they do not load in this Node, and the TypeScript
// build is incremental.
//   npm start  -> install, build, run the backend (which starts a local agentctl)
//   npm test   -> install, build; the type-check beside the checks of the generated proto types, docs/rest-api.md and the
//                 REST client types and the scripts' node:test files; unit + service + integration tests (again on PostgreSQL:
//                 KANDEV_TEST_DATABASE_URL's server or a throwaway cluster when PostgreSQL is installed; else one line: no
//                 PostgreSQL) while the agent adapters install; the agent adapter tests; the browser tests (or one line: no
//                 Chromium); the manifest check (or one line: no kubectl); the promtool checks (or one line: no promtool); then
//                 the container tests (or one line saying they were skipped: no container engine)
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runChains } from './lib/concurrent-steps.mjs';
import { withWorkers } from './lib/test-workers.mjs';
import { postgresInstalled, startThrowawayPostgres } from './lib/throwaway-postgres.mjs';
import { ensureBuilt, env, root, run } from './lib/workspace.mjs';

const command = process.argv[2];
ensureBuilt();

if (command === 'start') {
  const backend = spawn(process.execPath, [join(root, 'packages/backend/dist/main.js')], {
    cwd: root,
    env,
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  // stdout passes through unchanged (the JSON ready line is for programs); once it is ready, one
  // line on stderr tells a person where to go next.
  createInterface({ input: backend.stdout }).on('line', (line) => {
    process.stdout.write(`${line}\n`);
    const ready = readyLine(line);
    if (ready === undefined) return;
    process.stderr.write(
      `\nkandev is up: web console ${ready.url} (sign in with a link from \`npx kandev console\`), ` +
        `API token in ${ready.apiTokenFile ?? 'the variable you set'}; try \`npx kandev status\`. Ctrl-C stops it.\n\n`,
    );
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => backend.kill(signal));
  backend.on('close', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
} else if (command === 'test') {
  // The type-check beside the generated files' checks and the scripts' own rules (which Node and
  // headers native modules are built for): each chain is one process at a time.
  const npmRun = (script) => ['npm', ['run', '--silent', script]];
  await must({
    typecheck: [npmRun('typecheck')],
    generated: [
      npmRun('check:proto'),
      npmRun('check:rest-docs'),
      npmRun('check:rest-client'),
      [process.execPath, ['--test', 'scripts/lib/node-release.test.mjs', 'scripts/lib/native-modules.test.mjs']],
    ],
  });
  // The service and integration tests about what the database keeps (their any-db/ folders) run again
  // with every database on PostgreSQL, with those that need PostgreSQL itself (postgres/): on the server
  // KANDEV_TEST_DATABASE_URL names, else on a throwaway cluster when PostgreSQL's server binaries are
  // installed (apt-get install postgresql), else one 'skipped' line (a failure in CI, where .ci/run
  // starts one). One jest run for all, with more workers than CPUs (scripts/lib/test-workers.mjs).
  const projects = ['unit', 'service', 'integration'];
  if ((env.KANDEV_TEST_DATABASE_URL ?? '') === '' && postgresInstalled()) {
    const cluster = startThrowawayPostgres('test');
    process.on('exit', cluster.stop); // also when a step fails: run() exits
    env.KANDEV_TEST_DATABASE_URL = cluster.url;
    console.error('PostgreSQL tests: on a throwaway cluster (scripts/pg-cluster.mjs), removed afterwards');
  }
  if ((env.KANDEV_TEST_DATABASE_URL ?? '') !== '') {
    projects.push('service-pg', 'integration-pg');
  } else if (process.env.CI === 'true') {
    console.error('PostgreSQL tests: FAILED: no KANDEV_TEST_DATABASE_URL; .ci/run starts a cluster');
    process.exit(1);
  } else {
    console.error(
      'skipped: PostgreSQL tests: no PostgreSQL (apt-get install postgresql, or set KANDEV_TEST_DATABASE_URL; docs/database.md)',
    );
  }
  // The pinned ACP adapters (Claude Code, Codex, Gemini CLI) install from the npm registry meanwhile.
  const adapters = spawn(process.execPath, [join(root, 'scripts/agent-adapter-tests.mjs'), '--install-only'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const adaptersInstalled = new Promise((resolve) => adapters.on('close', (code) => resolve(code ?? 1)));
  run('jest', withWorkers(['--selectProjects', ...projects, ...process.argv.slice(3)]));
  if ((await adaptersInstalled) !== 0) process.exit(1);
  // The suites below hold timing promises (a page shows the truth within 5 s of a restart; an adapter
  // picks up a live tool change before the next prompt): each runs on a machine left to it.
  // The agent suite; the web console in Chromium when it is installed (otherwise one 'skipped' line, a
  // failure in CI).
  run(process.execPath, [join(root, 'scripts/agent-adapter-tests.mjs')]);
  run(process.execPath, [join(root, 'scripts/browser-tests.mjs')]);
  // The manifest checks refuse planted violations (hand-made objects); deploy/kubernetes's base and
  // overlays build, dry-run with kubectl and pass the schema and Pod Security checks (otherwise one
  // 'skipped' line, a failure in CI).
  run(process.execPath, ['--test', join(root, 'scripts/lib/manifest-checks.test.mjs')]);
  run(process.execPath, [join(root, 'scripts/check-manifests.mjs')]);
  // deploy/prometheus's rules check and pass their tests, the dashboard's queries parse (promtool);
  // otherwise one 'skipped' line (a failure in CI).
  run(process.execPath, [join(root, 'scripts/check-metrics-rules.mjs')]);
  // Runs them when DOCKER_HOST answers; otherwise prints the one 'skipped: no container engine' line.
  run(process.execPath, [join(root, 'scripts/container-tests.mjs')]);
} else {
  console.error('usage: node scripts/run.mjs start|test [jest args]');
  process.exit(2);
}

/**
 * Runs the chains at once (scripts/lib/concurrent-steps.mjs: every line prefixed with its chain's
 * name); exits 1 once all have ended when one failed.
 */
async function must(chains) {
  const failed = await runChains(chains, { cwd: root, env });
  if (failed.length > 0) {
    console.error(`npm test: FAILED in ${failed.join(' and ')}`);
    process.exit(1);
  }
}

/** The backend's `{"event":"ready",…}` line, or undefined for any other line. */
function readyLine(line) {
  try {
    const parsed = JSON.parse(line);
    return parsed?.event === 'ready' && typeof parsed.url === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
