#!/usr/bin/env node
// A throwaway PostgreSQL cluster for tests (the -pg jest projects) and for trying the backend on
// PostgreSQL, with Debian's `postgresql` package (initdb and pg_ctl under /usr/lib/postgresql/*/bin, or
// on PATH).
//   node scripts/pg-cluster.mjs start <dir> [--port N] [--durable]
//                                                        initdb in <dir>, start; prints the URL to use
//   node scripts/pg-cluster.mjs stop <dir>               stop it and remove <dir>
// The server listens on a unix socket in <dir> and on 127.0.0.1 (a free port unless --port), trusts
// local connections (it is for tests: loopback only, thrown away) and runs without fsync: a crash
// loses the cluster, which is thrown away anyway, and the tests run faster. `--durable` (the
// benchmarks): fsync and full-page writes on, `synchronous_commit=off` only, the analogue of SQLite's
// WAL with synchronous=NORMAL: a crash may lose the last commits, never the cluster. PostgreSQL refuses to run
// as root: as root, everything runs as the `postgres` user (created by the Debian package).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';

const MARKER = '.kandev-pg-cluster';

function usage() {
  console.error('usage: node scripts/pg-cluster.mjs start|stop <dir> [--port N] [--durable]');
  process.exit(2);
}

/** initdb/pg_ctl: the newest Debian install first, then PATH. */
function binary(name) {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const candidates = [
    ...versions.map((v) => join('/usr/lib/postgresql', v, 'bin', name)),
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name)),
  ];
  const found = candidates.find((path) => existsSync(path));
  if (found === undefined) {
    console.error(`pg-cluster: no ${name} (apt-get install postgresql)`);
    process.exit(1);
  }
  return found;
}

/** As root: the `postgres` user's uid/gid (PostgreSQL will not run as root). Otherwise: ourselves. */
function runAs() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function exec(user, command, args) {
  const result = spawnSync(command, args, {
    ...user,
    // pg_ctl's server keeps no handle on our stdout: `url=$(… start …)` returns.
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' },
  });
  if (result.status !== 0) {
    console.error(`pg-cluster: ${command} ${args.join(' ')} failed (${result.error?.message ?? result.status})`);
    process.exit(1);
  }
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function start(dir, portOption, durable) {
  if (existsSync(join(dir, 'data'))) {
    console.error(`pg-cluster: ${dir} already holds a cluster (stop it first)`);
    process.exit(1);
  }
  const user = runAs();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, MARKER), '');
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  exec(user, binary('initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    ...(durable ? [] : ['--no-sync']),
  ]);
  const port = portOption ?? (await freePort());
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    ...(durable ? ['-c fsync=on', '-c full_page_writes=on'] : ['-c fsync=off', '-c full_page_writes=off']),
    '-c synchronous_commit=off',
    '-c max_connections=300',
  ].join(' ');
  exec(user, binary('pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'postgres.log'), '-w', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  writeFileSync(join(dir, 'url'), `${url}\n`);
  process.stdout.write(`${url}\n`);
}

function stop(dir) {
  if (!existsSync(join(dir, MARKER))) {
    console.error(`pg-cluster: ${dir} is not a cluster started by this script`);
    process.exit(1);
  }
  const data = join(dir, 'data');
  if (existsSync(join(data, 'postmaster.pid'))) {
    exec(runAs(), binary('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  }
  rmSync(dir, { recursive: true, force: true });
}

const [command, dirArg, ...flags] = process.argv.slice(2);
const durable = flags.includes('--durable');
const rest = flags.filter((flag) => flag !== '--durable');
if (dirArg === undefined) usage();
const dir = resolve(dirArg);
const portAt = rest.indexOf('--port');
const port = portAt >= 0 ? Number(rest[portAt + 1]) : undefined;
if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) usage();
if (command === 'start') await start(dir, port, durable);
else if (command === 'stop') stop(dir);
else usage();
