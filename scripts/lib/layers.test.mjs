// Run by `npm run lint:graph` (node --test): the layer rules over small fixture trees.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkImportGraph } from './import-graph.mjs';
import { specProblems } from './layers.mjs';

const src = 'packages/backend/src';
const tree = (files) => Object.entries(files).map(([path, text]) => ({ path: `${src}/${path}`, text }));

/** Three layers, lowest first; the unit of work may aggregate stores from above. */
const SPEC = {
  maxFilesPerFolder: 3,
  largeFolders: { 'platform/store/migrations': 'one module per migration' },
  layers: [
    { name: 'platform', mayImport: [], folders: { store: 'knex', logger: 'pino' } },
    { name: 'catalogue', mayImport: ['platform'], folders: { tasks: 'tasks' } },
    {
      name: 'runtime',
      mayImport: ['platform', 'catalogue'],
      folders: { sessions: 'sessions', turns: 'turns' },
      rootFiles: { 'main.ts': 'the daemon' },
    },
  ],
  exemptions: [{ from: 'platform/store/unit-of-work.ts', to: '-store\\.ts$', why: 'aggregates every store' }],
};
const specs = (spec = SPEC) => new Map([['backend', spec]]);

/** A tree that keeps every rule. */
const GOOD = {
  'main.ts': "import { run } from './runtime/turns/turn';",
  'platform/logger/logger.ts': 'export const log = 1;',
  'platform/store/unit-of-work.ts': "import { TaskStore } from '../../catalogue/tasks/task-store';",
  'catalogue/tasks/task-store.ts': "import { log } from '../../platform/logger/logger';",
  'catalogue/tasks/task-service.ts': "import type { UnitOfWork } from '../../platform/store/unit-of-work';",
  'runtime/sessions/session.ts': "import type { Task } from '../../catalogue/tasks/task-store';",
  'runtime/turns/turn.ts': "import { session } from '../sessions/session';",
};

const check = (files, spec) => checkImportGraph(tree(files), specs(spec));

describe('layers', () => {
  test('a tree whose imports only go down passes', () => {
    const report = check(GOOD);
    assert.deepEqual(report.layers, { problems: [], imports: [] });
    assert.equal(report.ok, true);
  });

  test('an import into a higher layer fails, naming the import', () => {
    const report = check({ ...GOOD, 'platform/logger/logger.ts': "import { run } from '../../runtime/turns/turn';" });
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.layers.imports.map((e) => [e.from, e.line, e.to, e.fromLayer, e.toLayer, e.typeOnly]),
      [[`${src}/platform/logger/logger.ts`, 1, `${src}/runtime/turns/turn.ts`, 'platform', 'runtime', false]],
    );
  });

  test('a type-only import counts, in tests too', () => {
    const report = check({
      ...GOOD,
      'catalogue/tasks/task.test.ts': "\nimport type { Turn } from '../../runtime/turns/turn';",
    });
    assert.deepEqual(
      report.layers.imports.map((e) => [e.from.slice(src.length + 1), e.line, e.typeOnly]),
      [['catalogue/tasks/task.test.ts', 2, true]],
    );
  });

  test('a layer imports only what it lists, even below it', () => {
    const spec = JSON.parse(JSON.stringify(SPEC));
    spec.layers[2].mayImport = ['catalogue'];
    assert.deepEqual(
      check(GOOD, spec).layers.imports.map((e) => `${e.fromLayer} -> ${e.toLayer}`),
      [],
      'runtime imports nothing of platform in GOOD',
    );
    const report = check(
      { ...GOOD, 'runtime/turns/log.ts': "import { log } from '../../platform/logger/logger';" },
      spec,
    );
    assert.deepEqual(
      report.layers.imports.map((e) => `${e.fromLayer} -> ${e.toLayer}`),
      ['runtime -> platform'],
    );
  });

  test("the unit of work's imports of stores are exempt, of anything else not", () => {
    const report = check({
      ...GOOD,
      'platform/store/unit-of-work.ts': `${GOOD['platform/store/unit-of-work.ts']}\nimport '../../catalogue/tasks/task-service';`,
    });
    assert.deepEqual(
      report.layers.imports.map((e) => e.to.slice(src.length + 1)),
      ['catalogue/tasks/task-service.ts'],
    );
    assert.deepEqual(
      report.pairs.map((p) => `${p.a} <-> ${p.b}`),
      ['backend/catalogue/tasks <-> backend/platform/store'],
    );
  });

  test('concept folders inside a layer import one way', () => {
    const report = check({ ...GOOD, 'runtime/sessions/turns.ts': "import { run } from '../turns/turn';" });
    assert.deepEqual(
      report.pairs.map((p) => `${p.a} <-> ${p.b}`),
      ['backend/runtime/sessions <-> backend/runtime/turns'],
    );
    assert.deepEqual(report.layers.imports, []);
  });

  test('a file in no layer fails', () => {
    const report = check({ ...GOOD, 'helpers.ts': 'export {};', 'misc/x.ts': 'export {};' });
    assert.deepEqual(report.layers.problems, [
      'backend: src/helpers.ts is in no layer (a top-level folder of layers.json, or one of its rootFiles)',
      'backend: src/misc/x.ts is in no layer (a top-level folder of layers.json, or one of its rootFiles)',
    ]);
  });

  test('the spec lists exactly the concept folders on disk, and says what layer files hold', () => {
    const files = { ...GOOD, 'runtime/queue/queue.ts': 'export {};', 'runtime/wiring.ts': 'export {};' };
    delete files['platform/logger/logger.ts'];
    assert.deepEqual(check(files).layers.problems, [
      'backend: layers.json lists platform/logger/, which holds no source file',
      'backend: src/runtime/queue/ is not listed in layers.json',
      'backend: src/runtime/ holds files of its own: say what in its "files"',
    ]);
  });

  test('a folder over the size limit fails, a large folder the spec names does not', () => {
    const more = {
      'runtime/turns/a.ts': 'export {};',
      'runtime/turns/b.ts': 'export {};',
      'runtime/turns/c.test.ts': 'export {};',
    };
    const migrations = Object.fromEntries(
      ['001', '002', '003', '004'].map((n) => [`platform/store/migrations/${n}.ts`, 'export {};']),
    );
    assert.deepEqual(check({ ...GOOD, ...more, ...migrations }).layers.problems, [
      'backend: src/runtime/turns/ holds 4 files (at most 3): split it',
    ]);
  });

  test('mayImport names only layers listed before', () => {
    const spec = JSON.parse(JSON.stringify(SPEC));
    spec.layers[0].mayImport = ['runtime'];
    spec.layers[1].mayImport = ['platform', 'agents'];
    assert.deepEqual(specProblems('backend', spec), [
      'backend: platform may import runtime, which is not a layer listed before it',
      'backend: catalogue may import agents, which is not a layer listed before it',
    ]);
    assert.equal(check(GOOD, spec).ok, false);
  });
});
