#!/usr/bin/env node
// Checks deploy/prometheus with promtool: `promtool check rules` on kandev-rules.yml, `promtool test
// rules` on kandev-rules.test.yml (each alert fires and stays quiet where it should), and every PromQL
// expression of deploy/grafana/kandev-dashboard.json parsed by `promtool check rules` (written as
// recording rules to a temporary file, the dashboard's variables filled in). Which metric names the
// dashboard and rules may use is checked against real daemons' /metrics by an integration test
// (test/integration/default-db/metrics-deploy.int.test.ts).
// Without promtool (KANDEV_PROMTOOL when set, else `promtool` on PATH) this prints ONE 'skipped' line
// and exits 0, except in CI (CI=true), where .ci/run installs it and a missing one is a failure.
//   node scripts/check-metrics-rules.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const rulesDir = join(root, 'deploy/prometheus');
const dashboardFile = join(root, 'deploy/grafana/kandev-dashboard.json');

const promtool = process.env.KANDEV_PROMTOOL || 'promtool';
const found = spawnSync(promtool, ['--version'], { stdio: 'ignore' });
if (found.error !== undefined || found.status !== 0) {
  const why = 'no promtool (apt-get install prometheus)';
  if (process.env.CI === 'true') {
    console.error(`promtool checks: FAILED: ${why}; .ci/run installs it`);
    process.exit(1);
  }
  console.error(`skipped: promtool checks: ${why}`);
  process.exit(0);
}

/** Runs promtool; returns its output, or throws with it. */
function promtoolRun(args, cwd) {
  const result = spawnSync(promtool, args, { cwd, encoding: 'utf8' });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.status !== 0) throw new Error(`promtool ${args.join(' ')} failed:\n${output}`);
  return output;
}

/** The dashboard's expressions with its template variables filled in (promtool cannot parse `$x`). */
function dashboardExpressions() {
  const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8'));
  const values = Object.fromEntries(
    dashboard.templating.list.map((variable) => [variable.name, variable.current?.value ?? variable.query]),
  );
  const fill = (expr) => expr.replace(/\$\{?([a-z_]+)\}?/g, (match, name) => values[name] ?? match);
  return dashboard.panels.flatMap((panel) => panel.targets.map((target) => fill(target.expr)));
}

const temp = mkdtempSync(join(tmpdir(), 'kandev-promtool-'));
let failed = false;
try {
  promtoolRun(['check', 'rules', 'kandev-rules.yml'], rulesDir);
  promtoolRun(['test', 'rules', 'kandev-rules.test.yml'], rulesDir);
  const expressions = dashboardExpressions();
  const rules = expressions.map((expr, i) => ({ record: `dashboard:expr_${i}`, expr }));
  writeFileSync(join(temp, 'dashboard.rules.json'), JSON.stringify({ groups: [{ name: 'dashboard', rules }] }));
  promtoolRun(['check', 'rules', 'dashboard.rules.json'], temp);
  console.error(
    `promtool checks: kandev-rules.yml checks and its tests pass; the dashboard's ${expressions.length} expressions parse`,
  );
} catch (error) {
  failed = true;
  console.error(`promtool checks: FAILED: ${error.message}`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
