import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

// zod's JSON Schema output (draft 2020-12, the dialect of OpenAPI 3.1), with named shapes hoisted:
// a schema carrying `.meta({ id })` becomes `components.schemas[id]` and every use of it a `$ref`, so a
// Task or a Session is one named schema in the document and one named type in the generated clients.

export type JsonSchema = Record<string, unknown>;

const DEFS_REF = '#/$defs/';
const COMPONENT_REF = '#/components/schemas/';

/** `#/$defs/Task` -> `#/components/schemas/Task`, anywhere in the tree. */
function retarget(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(retarget);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith(DEFS_REF)
        ? `${COMPONENT_REF}${inner.slice(DEFS_REF.length)}`
        : retarget(inner),
    ]),
  );
}

/** Collects the named schemas of every conversion; `schemas` is `components.schemas`. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /**
   * Input side: what a client sends (a coerced number is documented as the number it must spell);
   * output side: what a handler sends (a defaulted field is always there).
   */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = converted;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      this.add(id, retarget(definition) as JsonSchema);
    }
    return retarget(rest) as JsonSchema;
  }

  /** One id, one shape: the same id with another shape (e.g. read as input and as output) is refused. */
  private add(id: string, schema: JsonSchema): void {
    const known = this.schemas[id];
    if (known !== undefined && !isDeepStrictEqual(known, schema)) {
      throw new Error(`the schema named ${id} has two shapes in the document (is it used as input and output?)`);
    }
    this.schemas[id] = schema;
  }

  /** The components, by name (a stable order for the generated clients). */
  sorted(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
