import { z } from 'zod';
import { defineTool } from './tool-definition';

export const OptionSchema = z
  .object({
    label: z.string().trim().min(1).max(60).describe('Short answer label.'),
    description: z.string().max(500).optional().describe('What choosing this option means.'),
  })
  .strict();

/** One question as the agent asks it (stored with a generated id when it has none). */
export const QuestionSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('Stable key for this answer in the result. Generated if omitted.'),
    prompt: z.string().trim().min(1).max(1000).describe('The question itself.'),
    title: z.string().max(12).optional().describe('Very short label for the question, at most 12 characters.'),
    options: z
      .array(OptionSchema)
      .min(2)
      .max(6)
      .optional()
      .refine((options) => options === undefined || new Set(options.map((o) => o.label)).size === options.length, {
        message: 'option labels must be unique within a question',
      })
      .describe('2-6 concrete choices. Omit them to ask for a free-text answer.'),
  })
  .strict();

const questions = z
  .array(QuestionSchema)
  .min(1)
  .max(4)
  .refine((items) => new Set(items.flatMap((q) => q.id ?? [])).size === items.filter((q) => q.id).length, {
    message: 'question ids must be unique',
  })
  .describe('1-4 related questions, asked together.');
const context = z.string().max(4000).optional().describe('Background the reader needs to answer.');

export const askUserQuestionTool = defineTool({
  name: 'ask_user_question_kandev',
  description:
    'Ask the user (the operator) 1-4 related questions (each multiple-choice, or free text when it has no ' +
    'options) and wait for the answers. Only ask what you cannot reasonably decide yourself, and bundle related ' +
    'questions in one call. Returns the answers by question id, or status "not_answered" with a reason ' +
    '(timeout, cancelled, session_stopped): then continue with your best judgment.',
  input: z.object({ questions, context }).strict(),
});

export const askParentQuestionTool = defineTool({
  name: 'ask_parent_question_kandev',
  description:
    'Ask your direct parent task 1-4 questions when a blocking decision cannot be made safely on your own. ' +
    'It returns at once with a question_id and status "waiting_for_parent"; end your turn then. The answer ' +
    'arrives later as a new message. Ask only for decisions that truly block you.',
  input: z
    .object({
      questions,
      context,
      blocked_reason: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .describe('One short sentence: what you cannot do until the parent answers.'),
    })
    .strict(),
});
