// A package's layers (packages/<pkg>/layers.json) and the rules they keep: every file of src/ belongs to
// one layer (its top-level folder, or a root file the spec names), a file imports only its own layer and
// the layers its layer lists in `mayImport` (type-only imports count), the spec lists exactly the concept
// folders on disk, and no folder holds more than `maxFilesPerFolder` files. Pure but for readLayerSpecs:
// the checks take file paths and import edges, so the unit test can hand them a fixture tree.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** Every packages/<pkg>/layers.json under `root`: Map<pkg, spec>. */
export function readLayerSpecs(root) {
  const specs = new Map();
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', pkg, 'layers.json');
    if (existsSync(file)) specs.set(pkg, JSON.parse(readFileSync(file, 'utf8')));
  }
  return specs;
}

/** `packages/backend/src/runtime/turns/x.ts` -> { pkg: 'backend', rest: 'runtime/turns/x.ts' }. */
export function splitSourcePath(path) {
  const match = /^packages\/([^/]+)\/src\/(.+)$/.exec(path);
  return match === null ? undefined : { pkg: match[1], rest: match[2] };
}

/**
 * Where a file of a layered package sits: its layer and its concept folder (`runtime/turns`). A file
 * directly in a layer folder, or a root file, is a node of its own. Undefined: in no layer.
 */
export function placeOf(rest, spec) {
  const segments = rest.split('/');
  if (segments.length === 1) {
    const owner = spec.layers.find((layer) => Object.hasOwn(layer.rootFiles ?? {}, rest));
    return owner === undefined ? undefined : { layer: owner.name, concept: rest };
  }
  const layer = spec.layers.find((l) => l.name === segments[0]);
  if (layer === undefined) return undefined;
  return { layer: layer.name, concept: segments.length > 2 ? `${segments[0]}/${segments[1]}` : rest };
}

/** The spec's exemptions as predicates over repo-relative edges. */
export function exemptionsOf(pkg, spec) {
  return (spec.exemptions ?? []).map((rule) => {
    const from = `packages/${pkg}/src/${rule.from}`;
    const to = new RegExp(rule.to);
    return (edge) => edge.from === from && to.test(edge.to);
  });
}

/** Mistakes in the spec itself: unknown or upward `mayImport`, a layer named twice. */
export function specProblems(pkg, spec) {
  const problems = [];
  const seen = [];
  for (const layer of spec.layers) {
    if (seen.includes(layer.name)) problems.push(`${pkg}: layer ${layer.name} is listed twice`);
    for (const target of layer.mayImport) {
      if (!seen.includes(target)) {
        problems.push(`${pkg}: ${layer.name} may import ${target}, which is not a layer listed before it`);
      }
    }
    seen.push(layer.name);
  }
  return problems;
}

/** Files outside every layer, concept folders the spec and the disk disagree on, folders over the limit. */
export function layoutProblems(pkg, spec, paths) {
  const problems = [];
  const rests = paths
    .map(splitSourcePath)
    .filter((p) => p?.pkg === pkg)
    .map((p) => p.rest);
  const onDisk = new Map(spec.layers.map((layer) => [layer.name, new Set()]));
  const layerFiles = new Set();
  for (const rest of rests) {
    const place = placeOf(rest, spec);
    if (place === undefined) {
      problems.push(`${pkg}: src/${rest} is in no layer (a top-level folder of layers.json, or one of its rootFiles)`);
      continue;
    }
    const depth = rest.split('/').length;
    if (depth > 2) onDisk.get(place.layer).add(rest.split('/')[1]);
    else if (depth === 2) layerFiles.add(place.layer);
  }
  for (const layer of spec.layers) {
    const listed = Object.keys(layer.folders ?? {});
    for (const folder of onDisk.get(layer.name)) {
      if (!listed.includes(folder)) problems.push(`${pkg}: src/${layer.name}/${folder}/ is not listed in layers.json`);
    }
    for (const folder of listed) {
      if (!onDisk.get(layer.name).has(folder)) {
        problems.push(`${pkg}: layers.json lists ${layer.name}/${folder}/, which holds no source file`);
      }
    }
    if (layerFiles.has(layer.name) && layer.files === undefined) {
      problems.push(`${pkg}: src/${layer.name}/ holds files of its own: say what in its "files"`);
    }
  }
  const counts = new Map();
  for (const rest of rests) counts.set(posix.dirname(rest), (counts.get(posix.dirname(rest)) ?? 0) + 1);
  for (const [folder, count] of [...counts].sort()) {
    const exempt = Object.hasOwn(spec.largeFolders ?? {}, folder);
    if (count > spec.maxFilesPerFolder && !exempt) {
      problems.push(`${pkg}: src/${folder}/ holds ${count} files (at most ${spec.maxFilesPerFolder}): split it`);
    }
  }
  return problems;
}

/** Imports from one layer into another its layer does not list in `mayImport`, each with its line. */
export function forbiddenImports(pkg, spec, edges) {
  const allowed = new Map(spec.layers.map((layer) => [layer.name, new Set([layer.name, ...layer.mayImport])]));
  const exempt = exemptionsOf(pkg, spec);
  const found = [];
  for (const edge of edges) {
    const from = splitSourcePath(edge.from);
    const to = splitSourcePath(edge.to);
    if (from?.pkg !== pkg || to?.pkg !== pkg) continue;
    const a = placeOf(from.rest, spec);
    const b = placeOf(to.rest, spec);
    if (a === undefined || b === undefined || allowed.get(a.layer).has(b.layer)) continue;
    if (exempt.some((isExempt) => isExempt(edge))) continue;
    found.push({ ...edge, fromLayer: a.layer, toLayer: b.layer });
  }
  return found;
}

/** Everything the layer rules report for every layered package. */
export function checkLayers(paths, edges, specs) {
  const problems = [];
  const imports = [];
  for (const [pkg, spec] of specs) {
    problems.push(...specProblems(pkg, spec), ...layoutProblems(pkg, spec, paths));
    imports.push(...forbiddenImports(pkg, spec, edges));
  }
  return { problems, imports };
}
