import fc from 'fast-check';
import type { ToolDefinition } from '@kandev/protocol';

/** A value for one argument: a live id, something near what a schema wants, or any JSON at all. */
function argumentValue(liveIds: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...liveIds),
    fc.array(fc.constantFrom(...liveIds), { maxLength: 3 }),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', '   ', '\u00a0', 'github', 'gitlab', 'done', 'in_progress', 'https://github.com/acme/x.git'),
    fc.integer({ min: -3, max: 1000 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(
      fc.dictionary(
        fc.constantFrom('question', 'options', 'label', 'text', 'remote_url', 'repository_id'),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 3 },
      ),
      { maxLength: 3 },
    ),
    fc.jsonValue({ maxDepth: 2 }),
  );
}

/**
 * Arguments for a tools/call: mostly objects over the tool's own property names (so calls reach its
 * handler), sometimes with a foreign key, and sometimes not an object at all.
 */
export function toolArguments(tool: ToolDefinition, liveIds: readonly string[]): fc.Arbitrary<unknown> {
  const keys = Object.keys(tool.input.shape);
  const own =
    keys.length === 0
      ? fc.constant({})
      : fc.dictionary(fc.constantFrom(...keys), argumentValue(liveIds), { maxKeys: keys.length });
  return fc.oneof(
    { weight: 6, arbitrary: own },
    {
      weight: 1,
      arbitrary: fc
        .tuple(own, fc.string({ minLength: 1, maxLength: 8 }), argumentValue(liveIds))
        .map(([args, key, value]) => ({ ...args, [key]: value })),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.array(fc.jsonValue({ maxDepth: 1 }))),
    },
  );
}
