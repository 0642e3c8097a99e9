// backend and agentctl never import each other, so each declares ask_user_question_kandev's input. This
// keeps them in step: the same properties (and required ones) at every level, the usual calls accepted by
// both, and the backend at least as strict (what it accepts, agentctl accepts too).
import { askUserQuestion } from '../../packages/agentctl/src/tools/question-tools';
import { AskUserQuestionArgsSchema } from '../../packages/backend/src/questions/question';
import { inputShape } from '../helpers/schema-shape';

const ACCEPTED = [
  { questions: [{ prompt: 'Why?' }] },
  {
    questions: [
      { id: 'db', title: 'Database', prompt: 'Which?', options: [{ label: 'A', description: 'a' }, { label: 'B' }] },
      { prompt: 'Anything else?' },
    ],
    context: 'ctx',
  },
];

const OUTSIDERS = [
  {},
  { questions: [] },
  { questions: [{ prompt: '' }] },
  { questions: [{ prompt: 'x', options: [{ label: 'a' }] }] },
  { questions: [{ prompt: 'x', options: [{ label: 'a' }, { label: 'a' }] }] },
  { questions: [{ prompt: 'x', title: 'much too long title' }] },
  { questions: Array.from({ length: 5 }, () => ({ prompt: 'x' })) },
  { questions: [{ prompt: 'x' }], task_id: 't' },
  { questions: [{ prompt: 'x', options: Array.from({ length: 7 }, (_, i) => ({ label: `o${i}` })) }] },
];

describe('ask_user_question_kandev: backend and agentctl declare the same input', () => {
  test('same properties, required ones and bounds at every level', () => {
    expect(inputShape(AskUserQuestionArgsSchema)).toEqual(inputShape(askUserQuestion.input));
  });

  test('the usual calls are accepted by both; whatever the backend accepts, agentctl accepts', () => {
    for (const sample of ACCEPTED) {
      expect({ sample, backend: AskUserQuestionArgsSchema.safeParse(sample).success }).toEqual({
        sample,
        backend: true,
      });
      expect({ sample, agentctl: askUserQuestion.input.safeParse(sample).success }).toEqual({
        sample,
        agentctl: true,
      });
    }
    for (const sample of [...OUTSIDERS, ...ACCEPTED]) {
      if (AskUserQuestionArgsSchema.safeParse(sample).success) {
        expect(askUserQuestion.input.safeParse(sample).success).toBe(true);
      }
    }
    expect(OUTSIDERS.filter((sample) => AskUserQuestionArgsSchema.safeParse(sample).success)).toEqual([]);
  });
});
