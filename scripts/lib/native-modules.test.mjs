// Run by `npm test` (node --test): which packages count as native, and how a failed load is reported.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadError, onlyBuiltDependencies } from './native-modules.mjs';

describe('onlyBuiltDependencies', () => {
  test("reads the block's names, quoted or not, past comments, and nothing after it", () => {
    const yaml = [
      'ignoredBuiltDependencies:',
      '  - protobufjs',
      'onlyBuiltDependencies:',
      '  # why',
      '  - better-sqlite3',
      "  - '@scope/native' # a comment",
      'overrides:',
      "  '@scope/other': 1.0.0",
    ].join('\n');
    assert.deepEqual(onlyBuiltDependencies(yaml), ['better-sqlite3', '@scope/native']);
  });
  test('is empty without the block', () => assert.deepEqual(onlyBuiltDependencies('packages:\n  - a\n'), []));
  test("the workspace's list is better-sqlite3", () =>
    assert.deepEqual(
      onlyBuiltDependencies(readFileSync(new URL('../../pnpm-workspace.yaml', import.meta.url), 'utf8')),
      ['better-sqlite3'],
    ));
});

describe('loadError', () => {
  test('names both ABIs when that is why', () => {
    const output = [
      "Error: The module '/x/build/Release/better_sqlite3.node'",
      'was compiled against a different Node.js version using',
      'NODE_MODULE_VERSION 115. This version of Node.js requires',
      'NODE_MODULE_VERSION 137. Please try re-compiling or re-installing',
    ].join('\n');
    assert.equal(loadError(output, '24.22.3'), 'built for Node ABI 115, Node 24.22.3 has 137');
  });
  test('else the first error line', () =>
    assert.equal(
      loadError('node:internal\n  at x\nError: Cannot find module', '24.22.3'),
      'Error: Cannot find module',
    ));
});
