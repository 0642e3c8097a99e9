import { PROVIDERS, providersFromWire } from '../provider';
import { QUESTION_CAPABILITIES } from '../question-capability';
import { SURFACES } from '../surface';
import fc from 'fast-check';
import type { ToolContext } from './tool-context';
import { selectTools, TOOL_GROUPS } from './tool-groups';

const names = (ctx: ToolContext) => selectTools(ctx).map((tool): string => tool.name);
const groupTools = (group: string) => TOOL_GROUPS.find((g) => g.name === group)?.tools.map((t) => t.name) ?? [];
const ALL_TOOLS = [...new Set(TOOL_GROUPS.flatMap((group) => group.tools))];

const contextArb = fc.record({
  surface: fc.constantFrom(...SURFACES),
  questionCapability: fc.constantFrom(...QUESTION_CAPABILITIES),
  providers: fc.subarray([...PROVIDERS]).map((p) => new Set(p)),
  ownsTaskTitle: fc.boolean(),
});

/** Every context there is (3 surfaces x 3 capabilities x 4 provider sets x 2), for exhaustive checks. */
const ALL_CONTEXTS: ToolContext[] = SURFACES.flatMap((surface) =>
  QUESTION_CAPABILITIES.flatMap((questionCapability) =>
    [[], ['github'], ['gitlab'], ['github', 'gitlab']].flatMap((providers) =>
      [false, true].map((ownsTaskTitle) => ({
        surface,
        questionCapability,
        providers: new Set(providers as (typeof PROVIDERS)[number][]),
        ownsTaskTitle,
      })),
    ),
  ),
);

describe('tool table properties', () => {
  test('tool names are unique within every selection', () => {
    fc.assert(fc.property(contextArb, (ctx) => new Set(names(ctx)).size === names(ctx).length));
  });

  test('selection is deterministic (equal contexts, equal lists in equal order)', () => {
    fc.assert(
      fc.property(contextArb, (ctx) => {
        expect(names({ ...ctx, providers: new Set([...ctx.providers].reverse()) })).toEqual(names(ctx));
      }),
    );
  });

  test('granting a provider never removes a tool', () => {
    fc.assert(
      fc.property(contextArb, fc.constantFrom(...PROVIDERS), (ctx, provider) => {
        const after = names({ ...ctx, providers: new Set([...ctx.providers, provider]) });
        expect(after).toEqual(expect.arrayContaining(names(ctx)));
      }),
    );
  });

  test('granting title ownership never removes a tool', () => {
    fc.assert(
      fc.property(contextArb, (ctx) => {
        expect(names({ ...ctx, ownsTaskTitle: true })).toEqual(expect.arrayContaining(names(ctx)));
      }),
    );
  });

  test('a session never gets both question tools', () => {
    fc.assert(
      fc.property(contextArb, (ctx) => {
        const selected = names(ctx);
        expect(selected.includes('ask_user_question_kandev') && selected.includes('ask_parent_question_kandev')).toBe(
          false,
        );
      }),
    );
  });

  test('provider tools only for supplied providers in {github, gitlab}; unknown wire values add nothing', () => {
    const wireValue = fc.oneof(
      fc.constantFrom('PROVIDER_GITHUB', 'PROVIDER_GITLAB', 'PROVIDER_UNSPECIFIED', 'PROVIDER_BITBUCKET', ''),
      fc.integer({ min: -1, max: 50 }),
    );
    fc.assert(
      fc.property(contextArb, fc.array(wireValue, { maxLength: 6 }), (ctx, wire) => {
        const providers = new Set(providersFromWire(wire));
        const selected = names({ ...ctx, providers });
        const has = (tools: string[]) => tools.some((tool) => selected.includes(tool));
        if (has(groupTools('github-pr'))) expect(wire).toContain('PROVIDER_GITHUB');
        if (has(groupTools('gitlab-mr'))) expect(wire).toContain('PROVIDER_GITLAB');
      }),
    );
  });

  test('every group is enabled by some context (no dead rows)', () => {
    for (const group of TOOL_GROUPS) {
      expect({ group: group.name, enabledSomewhere: ALL_CONTEXTS.some((ctx) => group.enabled(ctx)) }).toEqual({
        group: group.name,
        enabledSomewhere: true,
      });
    }
  });

  test('every tool name ends in _kandev, and one name is always one definition', () => {
    const byName = new Map<string, unknown>();
    for (const tool of ALL_TOOLS) {
      expect(tool.name).toMatch(/^[a-z][a-z_]*_kandev$/);
      expect(byName.get(tool.name) ?? tool).toBe(tool);
      byName.set(tool.name, tool);
    }
  });

  test('every input schema rejects an unknown property', () => {
    const unknownKey = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((key) => ALL_TOOLS.every((tool) => !(key in tool.input.shape)) && key !== '__proto__');
    fc.assert(
      fc.property(fc.constantFrom(...ALL_TOOLS), unknownKey, fc.jsonValue(), (tool, key, value) => {
        const result = tool.input.safeParse({ [key]: value });
        expect(result.success).toBe(false);
        expect(result.error?.issues.some((issue) => issue.code === 'unrecognized_keys')).toBe(true);
      }),
    );
  });
});
