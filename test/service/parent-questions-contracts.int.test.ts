// backend and agentctl never import each other, so what the backend TELLS agents must be checked against
// what agentctl SERVES them: every tool a system prompt names is in the tool list agentctl builds for a
// session of that capability; ask_parent_question_kandev's input is declared alike on both sides; and the
// reply shape the parent's prompt spells out is a valid message_task_kandev call.
import { QUESTION_CAPABILITIES } from '@kandev/protocol';
import { askParentQuestion } from '../../packages/agentctl/src/tools/question-tools';
import { messageTask } from '../../packages/agentctl/src/tools/task-tools';
import { selectTools } from '../../packages/agentctl/src/tools/tool-groups';
import { AskParentQuestionArgsSchema } from '../../packages/backend/src/questions/parent-question';
import { replyShape } from '../../packages/backend/src/questions/parent-question-prompts';
import { MessageTaskArgsSchema } from '../../packages/backend/src/tasks/task-tool-schemas';
import { QUESTION_TOOL, systemPromptFor, toolNamesIn } from '../../packages/backend/src/sessions/system-prompt';
import { inputShape } from '../helpers/schema-shape';

describe('system prompts name only tools agentctl serves that session', () => {
  test.each(QUESTION_CAPABILITIES)('capability %s', (capability) => {
    for (const ownsTaskTitle of [false, true]) {
      const served = selectTools({
        surface: 'kanban_task',
        questionCapability: capability,
        providers: new Set(),
        ownsTaskTitle,
      }).map((tool): string => tool.name);
      const named = toolNamesIn(systemPromptFor(capability));
      expect({ capability, missing: named.filter((name) => !served.includes(name)) }).toEqual({
        capability,
        missing: [],
      });
      const granted = QUESTION_TOOL[capability];
      // The prompt names the question tool the session really gets, and no other.
      const questionTools = served.filter((name) => name.startsWith('ask_'));
      expect(questionTools).toEqual(granted === null ? [] : [granted]);
      expect(named.filter((name) => name.startsWith('ask_'))).toEqual(questionTools);
    }
  });
});

describe('ask_parent_question_kandev: backend and agentctl declare the same input', () => {
  const ACCEPTED = [
    { questions: [{ prompt: 'Which?' }], blocked_reason: 'the schema' },
    {
      questions: [
        { id: 'db', title: 'DB', prompt: 'Which?', options: [{ label: 'A', description: 'a' }, { label: 'B' }] },
      ],
      context: 'ctx',
      blocked_reason: 'migration',
    },
  ];
  const OUTSIDERS = [
    {},
    { questions: [{ prompt: 'x' }] },
    { questions: [{ prompt: 'x' }], blocked_reason: '' },
    { questions: [{ prompt: 'x' }], blocked_reason: 'x'.repeat(201) },
    { questions: [], blocked_reason: 'b' },
    { questions: [{ prompt: 'x', options: [{ label: 'a' }] }], blocked_reason: 'b' },
    { questions: [{ prompt: 'x' }], blocked_reason: 'b', task_id: 't' },
  ];

  test('same properties, required ones and bounds at every level', () => {
    expect(inputShape(AskParentQuestionArgsSchema)).toEqual(inputShape(askParentQuestion.input));
  });

  test('the usual calls pass both; whatever the backend accepts, agentctl accepts', () => {
    for (const sample of ACCEPTED) {
      expect([
        AskParentQuestionArgsSchema.safeParse(sample).success,
        askParentQuestion.input.safeParse(sample).success,
      ]).toEqual([true, true]);
    }
    for (const sample of OUTSIDERS)
      expect({ sample, ok: AskParentQuestionArgsSchema.safeParse(sample).success }).toEqual({ sample, ok: false });
  });
});

describe("the reply shape in the parent's prompt", () => {
  test('is a message_task_kandev call both sides accept, once the parent writes its answer', () => {
    const shown = JSON.parse(replyShape({ id: 'q-1', childTaskId: 'kid' })) as Record<string, unknown>;
    const call = { ...shown, prompt: 'Use Postgres.' };
    expect(Object.keys(shown).sort()).toEqual(['prompt', 'reply_to_question_id', 'task_id']);
    expect(messageTask.input.safeParse(call).success).toBe(true);
    expect(MessageTaskArgsSchema.safeParse(call).success).toBe(true);
  });
});
