// Validates Kubernetes objects against the API's schemas, offline, with kubernetes-models (its models
// are generated from the Kubernetes OpenAPI document): each object's JSON-schema validation (types,
// required fields, enums, quantity and int-or-string formats), then its TypeScript declarations with
// the compiler's excess-property check, which finds a field the API does not have (a typo such as
// `securityContex`, which the API server would drop, or refuse with strict field validation). The
// JSON-schema validators accept unknown fields, so both are needed.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';

const require = createRequire(import.meta.url);
/** The previous program: a new one reuses its parsed declaration files (a second check is ~10× faster). */
let previous;

/** `apps/v1` + `Deployment` → the model's module name in kubernetes-models. */
const modelModule = (object) => `kubernetes-models/${object.apiVersion}/${object.kind}`;
const describe = (object) => `${object.kind ?? '?'}/${object.metadata?.name ?? '?'}`;

/** One line per problem: an unknown kind, a schema violation, a field the API does not have. */
export function schemaProblems(objects, root) {
  const problems = [];
  const known = [];
  for (const object of objects) {
    let model;
    try {
      model = require(modelModule(object))[object.kind];
    } catch {
      model = undefined;
    }
    if (typeof model !== 'function') {
      problems.push(`${describe(object)}: no Kubernetes schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new model(object).validate();
    } catch (error) {
      problems.push(`${describe(object)}: ${error.message}`);
    }
    known.push(object);
  }
  return [...problems, ...unknownFieldProblems(known, root)];
}

/**
 * Type-checks `const o<i>: I<Kind> = <object as JSON>;` for every object. Each object starts on its
 * own line, so a diagnostic's line says which object it is about.
 */
function unknownFieldProblems(objects, root) {
  if (objects.length === 0) return [];
  const file = join(root, '.manifest-schema-check.ts');
  const lines = [];
  const starts = [];
  objects.forEach((object, i) => lines.push(`import type { I${object.kind} as T${i} } from '${modelModule(object)}';`));
  objects.forEach((object, i) => {
    starts.push(lines.length);
    lines.push(...`export const o${i}: T${i} = ${JSON.stringify(object, null, 1)};`.split('\n'));
  });
  const source = lines.join('\n');
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2020.d.ts'],
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file?.fileName !== file || diagnostic.start === undefined) return `schema check: ${text}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const index = starts.findLastIndex((start) => start <= line);
    return `${index < 0 ? 'schema check' : describe(objects[index])}: ${text}`;
  });
}
