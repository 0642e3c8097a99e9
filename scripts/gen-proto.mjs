#!/usr/bin/env node
// Generates TypeScript types for the wire contract into packages/protocol/src/generated.
// The flags must match PROTO_LOAD_OPTIONS in packages/protocol/src/wire.ts, so runtime objects
// have exactly the shape of the generated types. `--check` regenerates into a temp dir and fails
// when the committed files differ (CI runs it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = join(root, 'packages/protocol/src/generated');
const check = process.argv.includes('--check');
const out = check ? mkdtempSync(join(tmpdir(), 'kandev-proto-')) : target;

const listFiles = (dir, base = dir) =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full, base) : [relative(base, full)];
  });

if (!check) rmSync(target, { recursive: true, force: true });
execFileSync(
  join(root, 'packages/protocol/node_modules/.bin/proto-loader-gen-types'),
  [
    // the file goes first: yargs would read it as one more --includeDirs value
    'kandev/agentctl/v1/agentctl.proto',
    '--keepCase',
    '--longs=String',
    '--enums=String',
    '--defaults',
    '--oneofs',
    '--grpcLib=@grpc/grpc-js',
    `--outDir=${out}`,
    `--includeDirs=${join(root, 'proto')}`,
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
// The generator writes the absolute path of the .proto into each header; keep output machine-independent.
for (const file of listFiles(out)) {
  const full = join(out, file);
  writeFileSync(full, readFileSync(full, 'utf8').replaceAll(`Original file: ${root}`, 'Original file: '));
}

if (check) {
  const want = listFiles(out);
  const have = listFiles(target);
  const stale = [
    ...want.filter(
      (f) => !have.includes(f) || readFileSync(join(out, f), 'utf8') !== readFileSync(join(target, f), 'utf8'),
    ),
    ...have.filter((f) => !want.includes(f)),
  ];
  rmSync(out, { recursive: true, force: true });
  if (stale.length > 0) {
    console.error(`generated proto types are stale: ${stale.join(', ')}\nrun: npm run gen:proto`);
    process.exit(1);
  }
  console.log('generated proto types are up to date');
}
