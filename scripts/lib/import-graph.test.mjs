// Run by `npm run lint:graph` (node --test): the import-graph rules over small fixture trees.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildEdges, checkImportGraph, parseImports, resolveSpecifier } from './import-graph.mjs';

const src = 'packages/backend/src';
/** A fixture tree: { 'tasks/task.ts': 'source', ... } under packages/backend/src. */
const tree = (files) => Object.entries(files).map(([path, text]) => ({ path: `${src}/${path}`, text }));
const names = (report) => ({
  fileCycles: report.fileCycles.map((c) => c.members.map((m) => m.slice(src.length + 1))),
  pairs: report.pairs.map((p) => `${p.a} <-> ${p.b}`),
  longer: report.longer.map((c) => c.members.join(' ')),
});

describe('parseImports', () => {
  test('finds every kind of import, type-only ones marked', () => {
    const text = [
      "import { a } from './value';",
      "import type { B } from './type-only';",
      "import { type C, type D } from './inline-types';",
      "import { type E, f } from './mixed';",
      "import './side-effect';",
      "export * from './re-export';",
      "export type { G } from './type-re-export';",
      "const lazy = () => import('./dynamic');",
      "const old = require('./required');",
      "let h: import('./type-query').H;",
      "import { z } from 'zod';",
    ].join('\n');
    assert.deepEqual(
      parseImports('x.ts', text).map((i) => [i.specifier, i.typeOnly, i.line]),
      [
        ['./value', false, 1],
        ['./type-only', true, 2],
        ['./inline-types', true, 3],
        ['./mixed', false, 4],
        ['./side-effect', false, 5],
        ['./re-export', false, 6],
        ['./type-re-export', true, 7],
        ['./dynamic', false, 8],
        ['./required', false, 9],
        ['./type-query', true, 10],
        ['zod', false, 11],
      ],
    );
  });
});

describe('resolveSpecifier', () => {
  const known = new Set([`${src}/tasks/task.ts`, `${src}/store/index.ts`]);
  for (const [specifier, expected] of [
    ['../tasks/task', `${src}/tasks/task.ts`],
    ['../tasks/task.js', `${src}/tasks/task.ts`],
    ['../store', `${src}/store/index.ts`],
    ['@kandev/protocol', undefined],
    ['../tasks/missing', undefined],
  ]) {
    test(`${specifier} -> ${expected}`, () => {
      assert.equal(resolveSpecifier(`${src}/questions/question.ts`, specifier, known), expected);
    });
  }
});

describe('checkImportGraph', () => {
  test('a tree whose folders import one way passes', () => {
    const report = checkImportGraph(
      tree({
        'tasks/task.ts': "import { newId } from '../store/row-values';",
        'store/row-values.ts': 'export const newId = () => 1;',
        'questions/question.ts': "import type { Task } from '../tasks/task';",
      }),
    );
    assert.equal(report.ok, true);
    assert.equal(report.edges.length, 2);
  });

  test('a loop of type-only imports between files fails', () => {
    const report = checkImportGraph(
      tree({
        'tool-calls/registry.ts': "import { handlers } from './handlers';",
        'tool-calls/handlers.ts': "import type { Deps } from './registry';",
      }),
    );
    assert.equal(report.ok, false);
    assert.deepEqual(names(report).fileCycles, [['tool-calls/handlers.ts', 'tool-calls/registry.ts']]);
    assert.deepEqual(
      report.fileCycles[0].loop.map((hop) => hop.edges[0].typeOnly),
      [true, false],
    );
  });

  test('two folders importing each other fail, with the file edges each way', () => {
    const report = checkImportGraph(
      tree({
        'tasks/task-service.ts': "import { pending } from '../questions/pending';",
        'questions/pending.ts': 'export const pending = 1;',
        'questions/question.ts': "import type { Task } from '../tasks/task';",
        'tasks/task.ts': 'export type Task = { id: string };',
      }),
    );
    assert.deepEqual(names(report), {
      fileCycles: [],
      pairs: ['backend/questions <-> backend/tasks'],
      longer: [],
    });
    const [pair] = report.pairs;
    assert.deepEqual(
      [pair.forward, pair.backward].map((edges) => edges.map((e) => `${e.from} -> ${e.to}`)),
      [
        [`${src}/questions/question.ts -> ${src}/tasks/task.ts`],
        [`${src}/tasks/task-service.ts -> ${src}/questions/pending.ts`],
      ],
    );
  });

  test('tests stay out of the folder graph (nothing imports them)', () => {
    const report = checkImportGraph(
      tree({
        'tasks/task.ts': "import { q } from '../questions/question';",
        'questions/question.ts': 'export const q = 1;',
        'questions/question.test.ts': "import '../tasks/task';",
      }),
    );
    assert.equal(report.ok, true);
  });

  test('a loop through three folders fails; a root file is a node of its own', () => {
    const report = checkImportGraph(
      tree({
        'logger.ts': "import type { LogLevel } from './config';",
        'config.ts': "import { agentEnv } from './agents/agent-env';",
        'agents/agent-env.ts': "import type { Logger } from '../logger';",
        'agents/runner.ts': "import type { Logger } from '../logger';",
      }),
    );
    assert.deepEqual(names(report), {
      fileCycles: [['agents/agent-env.ts', 'config.ts', 'logger.ts']],
      pairs: [],
      longer: ['backend/agents backend/config.ts backend/logger.ts'],
    });
    assert.deepEqual(
      report.longer[0].loop.map((hop) => `${hop.from} -> ${hop.to}`),
      [
        'backend/agents -> backend/logger.ts',
        'backend/logger.ts -> backend/config.ts',
        'backend/config.ts -> backend/agents',
      ],
    );
  });

  test('imports of other packages are not edges', () => {
    assert.deepEqual(buildEdges(tree({ 'tasks/task.ts': "import { AppError } from '@kandev/protocol';" })), []);
  });
});
