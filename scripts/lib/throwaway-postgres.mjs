// A throwaway PostgreSQL cluster (scripts/pg-cluster.mjs) for `npm test` and the benchmarks, when
// Debian's `postgresql` server binaries (or initdb on PATH) are installed.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PG_CLUSTER = fileURLToPath(new URL('../pg-cluster.mjs', import.meta.url));

/** Whether pg-cluster.mjs can start a cluster here: initdb under /usr/lib/postgresql/<v>/bin or on PATH. */
export function postgresInstalled() {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  const dirs = [
    ...versions.map((version) => join('/usr/lib/postgresql', version, 'bin')),
    ...(process.env.PATH ?? '').split(delimiter),
  ];
  return dirs.some((dir) => dir !== '' && existsSync(join(dir, 'initdb')));
}

/**
 * Starts a cluster in a fresh temporary dir (`durable`: fsync on, see pg-cluster.mjs); resolves its URL
 * and a synchronous `stop` (it removes the
 * dir; safe to call twice, and from an exit handler).
 */
export function startThrowawayPostgres(label, { durable = false } = {}) {
  const dir = join(tmpdir(), `kandev-${label}-pg-${process.pid}-${Date.now()}`);
  const args = [PG_CLUSTER, 'start', dir, ...(durable ? ['--durable'] : [])];
  const url = execFileSync(process.execPath, args, { encoding: 'utf8' }).trim();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    execFileSync(process.execPath, [PG_CLUSTER, 'stop', dir], { stdio: 'ignore' });
  };
  return { url, stop };
}
