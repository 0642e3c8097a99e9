// Validates an OpenAPI document with @apidevtools/swagger-parser in a child node process: its
// dependencies are ES modules, which node loads and Jest's CommonJS runtime does not.
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './processes';

const VALIDATE = `
import SwaggerParser from '@apidevtools/swagger-parser';
let input = '';
for await (const chunk of process.stdin) input += chunk;
try {
  await SwaggerParser.validate(JSON.parse(input));
  process.stdout.write('valid');
} catch (error) {
  process.stdout.write(String(error.message));
}
`;

/** 'valid', or the validator's message naming what is wrong. */
export function validateOpenApi(document: unknown): string {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', VALIDATE], {
    cwd: REPO_ROOT,
    input: JSON.stringify(document),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the validator did not run (${run.status}): ${run.stderr}`);
  return run.stdout;
}
