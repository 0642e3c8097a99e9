import { messageTaskTool } from '@kandev/protocol';
import type { ParentQuestion } from './parent-question';
import type { QuestionItem } from '../questions/question';

// Pure: the two prompts of a parent question. The parent's says who asks, what exactly, under which
// id and how to answer (the exact message_task_kandev arguments); the child's carries the answer.

function describeItem(item: QuestionItem, index: number): string {
  const head = `${index + 1}. [${item.id}] ${item.prompt}`;
  if (item.options === undefined) return `${head}\n   Free-text answer.`;
  const options = item.options
    .map((o) => (o.description === undefined ? `"${o.label}"` : `"${o.label}" (${o.description})`))
    .join(' | ');
  return `${head}\n   Options: ${options}`;
}

export function describeItems(items: readonly QuestionItem[]): string {
  return items.map(describeItem).join('\n');
}

export interface ChildIdentity {
  taskId: string;
  title: string;
  sessionId: string;
}

/** The exact arguments a parent passes to answer (the prompt is the parent's to write). */
export function replyShape(question: Pick<ParentQuestion, 'id' | 'childTaskId'>): string {
  return JSON.stringify({
    task_id: question.childTaskId,
    reply_to_question_id: question.id,
    prompt: '<your answer to each question above, by its id>',
  });
}

/** Queued for the parent's session, attributed to the child task. */
export function parentPromptText(question: ParentQuestion, child: ChildIdentity): string {
  const lines = [
    `[kandev parent question ${question.id}] Your autopilot subtask "${child.title}" ` +
      `(task ${child.taskId}, session ${child.sessionId}) asks you to decide. It is paused until you answer.`,
    '',
    `question_id: ${question.id}`,
    `Blocked: ${question.blockedReason}`,
    ...(question.context === null ? [] : [`Context: ${question.context}`]),
    '',
    describeItems(question.questions),
    '',
    `Answer once by calling ${messageTaskTool.name} with:`,
    replyShape(question),
    'The first answer wins; sending it again is harmless (already_answered). If you cannot decide yourself, ' +
      'you may ask whoever you can ask first and answer here afterwards. A message to the subtask without ' +
      'reply_to_question_id supersedes the question instead of answering it.',
  ];
  return lines.join('\n');
}

export interface ParentIdentity {
  taskId: string;
  title: string;
}

/** Queued for the child's session (first, past the gate), attributed to the parent task. */
export function answerPromptText(question: ParentQuestion, parent: ParentIdentity, answer: string): string {
  return [
    `[kandev answer to ${question.id}] Your parent task "${parent.title}" (task ${parent.taskId}) answered ` +
      `your question ${question.id}:`,
    '',
    answer,
    '',
    'You asked:',
    describeItems(question.questions),
    '',
    'Continue your work with this answer.',
  ].join('\n');
}

/** One line for the child's conversation entry (the metadata holds the whole record). */
export function questionMessageText(question: ParentQuestion): string {
  return (
    `Asked parent task ${question.parentTaskId} (question ${question.id}; blocked: ${question.blockedReason}):\n` +
    describeItems(question.questions)
  );
}
