#!/usr/bin/env node
// Fails when files in packages/*/src import each other in a loop, when two concept folders of a package
// import each other (directly or through other folders), or when a package with layers
// (packages/<pkg>/layers.json: the layers, what each may import, the exemptions) breaks them: an import
// its layer may not make, a file in no layer, a folder the spec does not list, a folder over its size.
// The rules live in scripts/lib/import-graph.mjs and scripts/lib/layers.mjs.
// Usage: node scripts/check-import-graph.mjs [--all-edges]   (--all-edges lists every file edge of a pair)
import { fileURLToPath } from 'node:url';
import { checkImportGraph, folderOf } from './lib/import-graph.mjs';
import { readLayerSpecs } from './lib/layers.mjs';
import { sourceFiles } from './lib/source-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const allEdges = process.argv.includes('--all-edges');

/** `packages/backend/src/catalogue/tasks/task.ts` -> `catalogue/tasks/task.ts`: the package is in the heading. */
const short = (path) => path.replace(/^packages\/[^/]+\/src\//, '');
const edgeText = (e) => `${short(e.from)}:${e.line} -> ${short(e.to)}${e.typeOnly ? ' (type only)' : ''}`;

function describeEdges(edges) {
  const shown = allEdges ? edges : edges.slice(0, 1);
  const more = edges.length - shown.length;
  return shown.map((e, i) => `      ${edgeText(e)}${i === 0 && more > 0 ? `   (+${more} more)` : ''}`);
}

const lines = [];
const report = checkImportGraph(sourceFiles(root), readLayerSpecs(root));

if (report.fileCycles.length > 0) {
  lines.push(`File import cycles (${report.fileCycles.length}): break each loop by moving the shared piece down.`);
  for (const { members, loop } of report.fileCycles) {
    const pkg = folderOf(members[0])?.pkg;
    lines.push(`  ${pkg}: ${members.length} files in one loop, e.g. (${loop.length} hops):`);
    for (const hop of loop) lines.push(...describeEdges(hop.edges));
    lines.push(`    all ${members.length}: ${members.map(short).join(', ')}`);
  }
}

if (report.pairs.length > 0) {
  lines.push(`Folders importing each other (${report.pairs.length}): pick the direction to keep, move the rest down.`);
  for (const { a, b, forward, backward } of report.pairs) {
    lines.push(`  ${a} <-> ${b.replace(/^[^/]+\//, '')}   (${forward.length} / ${backward.length} imports)`);
    lines.push(...describeEdges(forward), ...describeEdges(backward));
  }
}

if (report.longer.length > 0) {
  lines.push(`Folder cycles through 3+ folders, outside the pairs above (${report.longer.length}):`);
  for (const { members, loop } of report.longer) {
    lines.push(`  ${loop.map((hop) => hop.from).join(' -> ')} -> ${loop[0].from}   (component: ${members.join(', ')})`);
    for (const hop of loop) lines.push(...describeEdges(hop.edges));
  }
}

const { problems, imports } = report.layers;
if (problems.length > 0) {
  lines.push(`Layer layout (${problems.length}): fix the tree or packages/<pkg>/layers.json.`);
  for (const problem of problems) lines.push(`  ${problem}`);
}

if (imports.length > 0) {
  lines.push(`Imports across layers that layers.json does not allow (${imports.length}): move the shared piece down.`);
  for (const e of imports) lines.push(`  ${folderOf(e.from)?.pkg}: ${e.fromLayer} -> ${e.toLayer}   ${edgeText(e)}`);
}

const summary =
  `import graph: ${report.files} files, ${report.edges.length} imports; ` +
  `${report.fileCycles.length} file cycles, ${report.pairs.length} folder pairs, ${report.longer.length} longer folder cycles, ` +
  `${imports.length} imports across layers`;
if (report.ok) {
  console.log(summary);
} else {
  console.error([...lines, summary].join('\n'));
  process.exitCode = 1;
}
