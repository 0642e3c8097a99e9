// The import graph of packages/*/src and the two rules that keep folders importing one way, as packages
// do: no cycle between files, and no cycle between the top-level folders of a package. Pure: it takes
// file texts, so the unit test can hand it a fixture tree. scripts/check-import-graph.mjs reads the disk.
//
// Every import counts, type-only ones included: `import type` vanishes from the emitted JavaScript,
// but it still makes the importing folder depend on the other one (a change there breaks the build
// here), and eslint's import-x/no-cycle skips those, so this check is the one that sees them.
import { posix } from 'node:path';
import ts from 'typescript';

/**
 * Imports that stay out of the folder graph (they still count for file cycles). The unit of work
 * aggregates every folder's store on purpose and every folder may import it; its own imports of
 * those stores would otherwise make `store/` and each domain folder import each other. Only its
 * imports of `*-store.ts` files are exempt: anything else it pulls in counts like any other edge.
 */
export const FOLDER_GRAPH_EXEMPTIONS = [{ from: 'packages/backend/src/store/unit-of-work.ts', to: /-store\.ts$/ }];

/** Tests are leaves (nothing imports them) and may reach across folders to set up their subject. */
const isTestFile = (path) => /\.test\.ts$/.test(path);

/** `packages/backend/src/tasks/task.ts` -> { pkg: 'backend', folder: 'tasks' }; a root file is its own node. */
export function folderOf(path) {
  const match = /^packages\/([^/]+)\/src\/(.+)$/.exec(path);
  if (match === null) return undefined;
  const [, pkg, rest] = match;
  const slash = rest.indexOf('/');
  return { pkg, folder: slash === -1 ? rest : rest.slice(0, slash) };
}

/** Every module specifier `text` mentions, with its line and whether it only brings in types. */
export function parseImports(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const add = (literal, typeOnly) => {
    if (literal === undefined || !ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    found.push({ specifier: literal.text, line, typeOnly });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, isTypeOnlyImport(node));
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly || isTypeOnlyExport(node));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    } else if (ts.isCallExpression(node) && isImportOrRequireCall(node)) {
      add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isTypeOnlyImport(node) {
  const clause = node.importClause;
  if (clause === undefined) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function isTypeOnlyExport(node) {
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

function isImportOrRequireCall(node) {
  const callee = node.expression;
  const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
  const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
  return (isImport || isRequire) && node.arguments.length === 1;
}

/** The file a relative specifier names among `known` (CommonJS `./x`, ESM `./x.js`, or a folder's index). */
export function resolveSpecifier(fromPath, specifier, known) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined; // another package
  const base = posix.normalize(posix.join(posix.dirname(fromPath), specifier));
  const stem = base.replace(/\.(c|m)?js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${base}.ts`, `${base}/index.ts`];
  return candidates.find((candidate) => known.has(candidate));
}

/** Edges between the given files: { from, to, line, typeOnly }. Imports of other packages are left out. */
export function buildEdges(files) {
  const known = new Set(files.map((f) => f.path));
  const edges = [];
  for (const { path, text } of files) {
    for (const { specifier, line, typeOnly } of parseImports(path, text)) {
      const to = resolveSpecifier(path, specifier, known);
      if (to !== undefined && to !== path) edges.push({ from: path, to, line, typeOnly });
    }
  }
  return edges;
}

/** Strongly connected components with more than one node (Tarjan), each sorted, in a stable order. */
export function cyclicComponents(nodes, successors) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of successors(node)) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) connect(node);
  return components.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** A shortest cycle through `start` inside `members` (breadth-first), as a node list ending at `start`. */
export function shortestCycle(start, members, successors) {
  const inside = new Set(members);
  const previous = new Map();
  const queue = [start];
  for (let i = 0; i < queue.length; i += 1) {
    const node = queue[i];
    for (const next of [...successors(node)].sort()) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** Edges grouped by a key of their endpoints: Map<key, Map<key, edge[]>>. */
function adjacency(edges, keyOf) {
  const out = new Map();
  for (const edge of edges) {
    const from = keyOf(edge.from);
    const to = keyOf(edge.to);
    if (from === to) continue;
    if (!out.has(from)) out.set(from, new Map());
    const targets = out.get(from);
    if (!targets.has(to)) targets.set(to, []);
    targets.get(to).push(edge);
  }
  return out;
}

const successorsIn = (adj) => (node) => (adj.get(node) ?? new Map()).keys();

/** File cycles: each component with one example loop, through the member most files in it import. */
export function findFileCycles(edges) {
  const adj = adjacency(edges, (path) => path);
  const nodes = new Set(edges.flatMap((e) => [e.from, e.to]));
  return cyclicComponents(nodes, successorsIn(adj)).map((members) => {
    const inside = new Set(members);
    const fanIn = (file) => members.filter((m) => adj.get(m)?.has(file) && inside.has(m)).length;
    const hub = [...members].sort((a, b) => fanIn(b) - fanIn(a) || (a < b ? -1 : 1))[0];
    const loop = shortestCycle(hub, members, successorsIn(adj));
    return { members, loop: hopsOf(loop, adj) };
  });
}

/** Each consecutive pair of a node list, with the edges that make that hop. */
function hopsOf(loop, adj) {
  return loop.slice(0, -1).map((from, i) => ({ from, to: loop[i + 1], edges: adj.get(from).get(loop[i + 1]) }));
}

const isExempt = (edge) => FOLDER_GRAPH_EXEMPTIONS.some((rule) => edge.from === rule.from && rule.to.test(edge.to));

/**
 * Folder cycles per package: `pairs` (two folders importing each other, with the file edges each way)
 * and `longer` (cycles through three or more folders that remain once every pair's edges are set aside:
 * a loop that also uses a pair edge shows up after that pair is fixed).
 */
export function findFolderCycles(edges) {
  const counted = edges.filter((e) => !isTestFile(e.from) && !isExempt(e));
  const nodeOf = (path) => {
    const at = folderOf(path);
    return at === undefined ? path : `${at.pkg}/${at.folder}`;
  };
  const sameLevel = counted.filter((e) => folderOf(e.from)?.pkg === folderOf(e.to)?.pkg);
  const adj = adjacency(sameLevel, nodeOf);
  const pairs = [];
  for (const [a, targets] of adj) {
    for (const [b, forward] of targets) {
      const backward = adj.get(b)?.get(a);
      if (backward !== undefined && a < b) pairs.push({ a, b, forward, backward });
    }
  }
  pairs.sort((x, y) => (x.a === y.a ? (x.b < y.b ? -1 : 1) : x.a < y.a ? -1 : 1));
  const inPair = (from, to) => pairs.some((p) => (p.a === from && p.b === to) || (p.a === to && p.b === from));
  const oneWay = sameLevel.filter((e) => !inPair(nodeOf(e.from), nodeOf(e.to)));
  const oneWayAdj = adjacency(oneWay, nodeOf);
  const nodes = new Set(oneWay.flatMap((e) => [nodeOf(e.from), nodeOf(e.to)]));
  const longer = cyclicComponents(nodes, successorsIn(oneWayAdj)).map((members) => ({
    members,
    loop: hopsOf(shortestCycle(members[0], members, successorsIn(oneWayAdj)), oneWayAdj),
  }));
  return { pairs, longer };
}

/** Everything the check reports; `ok` when there is nothing. */
export function checkImportGraph(files) {
  const edges = buildEdges(files);
  const fileCycles = findFileCycles(edges);
  const { pairs, longer } = findFolderCycles(edges);
  return {
    files: files.length,
    edges,
    fileCycles,
    pairs,
    longer,
    ok: !fileCycles.length && !pairs.length && !longer.length,
  };
}
