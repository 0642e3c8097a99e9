import fc from 'fast-check';
import {
  LaunchConfigSchema,
  PERMISSION_POLICIES,
  PROVIDERS,
  selectTools,
  SURFACES,
  toolContextFromConfig,
} from '@kandev/protocol';
import { providerSetOf } from '../../catalogue/repositories/provider-set';
import { buildLaunchConfig, type LaunchInput } from './launch-config-builder';
import { QUESTION_TOOL, toolNamesIn } from './system-prompt';

const ALL_QUESTION_TOOLS = Object.values(QUESTION_TOOL).filter((t): t is string => t !== null);

const inputArb: fc.Arbitrary<LaunchInput> = fc.record({
  task: fc.record({ id: fc.uuid(), workspaceId: fc.uuid(), autopilot: fc.boolean() }),
  hasParent: fc.boolean(),
  repositoryProviders: fc.array(fc.constantFrom<string | null>(...PROVIDERS, null, 'bitbucket', ' GitLab ', ''), {
    maxLength: 6,
  }),
  surface: fc.constantFrom(...SURFACES),
  ownsTaskTitle: fc.boolean(),
  sessionId: fc.uuid(),
  revision: fc.integer({ min: 1, max: 1_000_000 }),
  mcpToken: fc.base64String({ minLength: 44, maxLength: 44 }),
  agent: fc.option(
    fc.record({
      command: fc.constantFrom('claude', 'codex'),
      args: fc.array(fc.string(), { maxLength: 3 }),
      env: fc.dictionary(fc.stringMatching(/^[A-Z]{1,6}$/), fc.string(), { maxKeys: 2 }),
      cwd: fc.option(fc.constant('/work'), { nil: null }),
      supportsMcp: fc.boolean(),
      resumeAcpSessionId: fc.option(fc.constant('acp-1'), { nil: null }),
      permissionPolicy: fc.constantFrom(...PERMISSION_POLICIES),
    }),
    { nil: null },
  ),
});

const expectedCapability = (i: LaunchInput) => (!i.task.autopilot ? 'user' : i.hasParent ? 'parent' : 'none');

describe('buildLaunchConfig', () => {
  test('a normal task with a github and a gitlab repository', () => {
    const config = buildLaunchConfig({
      task: { id: 't1', workspaceId: 'w1', autopilot: false },
      hasParent: true,
      repositoryProviders: ['gitlab', null, 'github'],
      surface: 'kanban_task',
      ownsTaskTitle: false,
      sessionId: 's1',
      revision: 1,
      mcpToken: 'x'.repeat(43),
      agent: null,
    });
    expect(config).toMatchObject({ questionCapability: 'user', providers: ['github', 'gitlab'], revision: 1 });
    expect(config.systemPrompt).toContain('ask_user_question_kandev');
  });

  test('the autopilot root prompt says no one can be asked and names no question tool', () => {
    const config = buildLaunchConfig({
      task: { id: 't1', workspaceId: 'w1', autopilot: true },
      hasParent: false,
      repositoryProviders: [],
      surface: 'kanban_task',
      ownsTaskTitle: true,
      sessionId: 's1',
      revision: 1,
      mcpToken: 'x'.repeat(43),
      agent: null,
    });
    expect(config.questionCapability).toBe('none');
    expect(config.systemPrompt).toMatch(/no one can be asked/i);
    expect(config.systemPrompt).toMatch(/best judgment/i);
    for (const tool of ALL_QUESTION_TOOLS) expect(config.systemPrompt).not.toContain(tool);
  });

  test('capability follows the matrix, providers are the normalised union, the config is valid', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const config = buildLaunchConfig(input);
        expect(config.questionCapability).toBe(expectedCapability(input));
        expect(config.providers).toEqual(providerSetOf(input.repositoryProviders));
        expect(LaunchConfigSchema.safeParse(config).success).toBe(true);
        expect(config).toMatchObject({ sessionId: input.sessionId, taskId: input.task.id, revision: input.revision });
      }),
    );
  });

  test('never both question tools: the prompt names exactly the granted tool, or none', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const config = buildLaunchConfig(input);
        const named = ALL_QUESTION_TOOLS.filter((tool) => config.systemPrompt.includes(tool));
        const granted = QUESTION_TOOL[config.questionCapability];
        expect(named).toEqual(granted === null ? [] : [granted]);
      }),
    );
  });

  test('prompts differ for normal, autopilot child and autopilot root', () => {
    fc.assert(
      fc.property(inputArb, inputArb, (a, b) => {
        const [ca, cb] = [buildLaunchConfig(a), buildLaunchConfig(b)];
        expect(ca.systemPrompt === cb.systemPrompt).toBe(ca.questionCapability === cb.questionCapability);
      }),
    );
  });

  test('deterministic, and the input is never shared or mutated', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const before = structuredClone(input);
        const first = buildLaunchConfig(input);
        expect(buildLaunchConfig(input)).toEqual(first);
        expect(input).toEqual(before);
        if (first.agent !== null) expect(first.agent.args).not.toBe(input.agent?.args);
      }),
    );
  });
});

// Capability and surface agree by construction (the question groups apply on every surface): over every
// surface x capability x provider set x title ownership, the list agentctl serves holds the question
// tool exactly when the capability selects one, and the system prompt names only tools that are served.
describe('launch config, served tools and system prompt agree', () => {
  test('for every launch input', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const config = buildLaunchConfig(input);
        const served = selectTools(toolContextFromConfig(config)).map((tool): string => tool.name);
        const granted = QUESTION_TOOL[config.questionCapability];
        expect(served.filter((name) => ALL_QUESTION_TOOLS.includes(name))).toEqual(granted === null ? [] : [granted]);
        const named = toolNamesIn(config.systemPrompt);
        expect({ surface: config.surface, unserved: named.filter((name) => !served.includes(name)) }).toEqual({
          surface: config.surface,
          unserved: [],
        });
      }),
      { numRuns: 500 },
    );
  });
});
