// Run by `npm test` (node --test): which headers and which `node` the scripts hand to their children.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { headersAbi, localHeaders, pathWithNode } from './node-release.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'node-release-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A fake Node install under scratch/<name>: bin/node, and include/node when `abi` is given. */
function install(name, abi) {
  const prefix = join(scratch, name);
  mkdirSync(join(prefix, 'bin'), { recursive: true });
  writeFileSync(join(prefix, 'bin/node'), '#!/bin/sh\n');
  chmodSync(join(prefix, 'bin/node'), 0o755);
  if (abi !== undefined) {
    mkdirSync(join(prefix, 'include/node'), { recursive: true });
    // As in Node's own header: the embedder override comes first, the number second.
    const header = `#if defined(NODE_EMBEDDER_MODULE_VERSION)\n#define NODE_MODULE_VERSION NODE_EMBEDDER_MODULE_VERSION\n#else\n#define NODE_MODULE_VERSION ${abi}\n#endif\n`;
    writeFileSync(join(prefix, 'include/node/node_version.h'), header);
  }
  return prefix;
}

const node20 = install('node20', '115');
const node24 = install('node24', '137');
const bare = install('bare');

describe('headersAbi', () => {
  test("reads the number, not the embedder's override", () => assert.equal(headersAbi(node24), '137'));
  test('is undefined without headers', () => assert.equal(headersAbi(bare), undefined));
});

describe('localHeaders', () => {
  const node = (prefix, modules) => ({ bin: join(prefix, 'bin/node'), modules });
  test("prefers the Node's own headers", () => assert.equal(localHeaders(node(node24, '137'), node20), node24));
  test('takes the configured nodedir only when its ABI is the same', () => {
    assert.equal(localHeaders(node(bare, '115'), node20), node20);
    assert.equal(localHeaders(node(bare, '137'), node20), undefined);
  });
  test('never a nodedir of another ABI, as `nodedir=/usr` on another line would be', () =>
    assert.equal(localHeaders(node(node20, '137'), ''), undefined));
});

describe('pathWithNode', () => {
  const path = [join(node20, 'bin'), '/usr/bin'].join(delimiter);
  test('puts the Node in front when another one comes first', () =>
    assert.equal(
      pathWithNode(path, join(node24, 'bin/node')),
      [join(node24, 'bin'), ...path.split(delimiter)].join(delimiter),
    ));
  test('leaves PATH alone when the Node is already first', () =>
    assert.equal(pathWithNode(path, join(node20, 'bin/node')), path));
});
