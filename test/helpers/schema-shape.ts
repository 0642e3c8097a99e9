import { z } from 'zod';

// backend and agentctl never import each other, so both declare each tool's input; contract tests
// compare the two declarations by shape.

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
}

function shapeOf(schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return undefined;
  const variants = schema.anyOf?.filter((s) => (s as { type?: string }).type !== 'null');
  if (variants !== undefined && variants.length === 1) return shapeOf(variants[0]);
  return {
    properties: Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, property]) => [name, shapeOf(property)]),
    ),
    required: [...(schema.required ?? [])].sort(),
    items: shapeOf(schema.items),
    bounds: [schema.minItems, schema.maxItems],
  };
}

/** Property names, required ones and array bounds, recursively; descriptions and refinements aside. */
export function inputShape(schema: z.ZodType): unknown {
  return shapeOf(z.toJSONSchema(schema, { io: 'input' }) as JsonSchema);
}
