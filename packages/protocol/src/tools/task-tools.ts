import { z } from 'zod';
import { TaskStateSchema } from '../task-state';
import { defineTool } from './tool-definition';
import { nonBlankText, promptText } from './prompt-text';
import { MAX_DESCRIPTION_LENGTH, pageCursor, pageLimit, taskTitle, toolId } from './tool-inputs';

// Task tools. Identity is bound by agentctl: "the current task" is the session's task, never an argument.

const taskId = (what: string) => toolId().describe(what);
const optionalTaskId = taskId('Task to act on. Omit for your own (current) task.').optional();
const description = (what: string) => z.string().max(MAX_DESCRIPTION_LENGTH).optional().describe(what);

export const listTasksTool = defineTool({
  name: 'list_tasks_kandev',
  description:
    'List tasks in your workspace with their id, title, state, parent and autopilot flag. Use it to find a task ' +
    'id before get_task_kandev or message_task_kandev, or to check on subtasks you created (parent_id "self").',
  readOnly: true,
  input: z
    .object({
      parent_id: toolId()
        .optional()
        .describe('Only direct children of this task; "self" means children of your current task.'),
      state: TaskStateSchema.optional().describe('Only tasks in this state, e.g. "in_progress" or "done".'),
      include_archived: z.boolean().optional().describe('Also list archived tasks. Default false.'),
      limit: pageLimit(),
      cursor: pageCursor(),
    })
    .strict(),
});

export const getTaskTool = defineTool({
  name: 'get_task_kandev',
  description:
    'Get one task: title, description, state, parent, autopilot flag, attached repositories and linked ' +
    'PRs/MRs. Omit task_id to read your own task.',
  readOnly: true,
  input: z.object({ task_id: optionalTaskId }).strict(),
});

export const createTaskTool = defineTool({
  name: 'create_task_kandev',
  description:
    'Create a task, optionally as a subtask (parent_id "self" makes it a child of your current task) and ' +
    'optionally in autopilot mode. The prompt is the only context the new task agent starts with, so make it ' +
    'specific. Autopilot is fixed at creation and never inherited: an autopilot subtask asks you (its parent) ' +
    'instead of the user, and you answer with message_task_kandev.',
  input: z
    .object({
      title: taskTitle().describe('Short task title, at most 60 characters.'),
      prompt: promptText().optional().describe("The new task agent's first message: goal, constraints, done-criteria."),
      description: description('Longer description shown to people on the board.'),
      parent_id: toolId()
        .optional()
        .describe('Parent task id, or "self" for your current task. Omit for a top-level task.'),
      autopilot: z
        .boolean()
        .optional()
        .describe('Run the new task in autopilot mode (asks its parent, not the user). Default false.'),
      agent_profile_id: toolId().optional().describe('Agent profile to run the task with. Omit for the default.'),
      start_agent: z.boolean().optional().describe('Start an agent on the task right away. Default true.'),
    })
    .strict(),
});

export const updateTaskTool = defineTool({
  name: 'update_task_kandev',
  description:
    "Change a task's title, description or state. Autopilot cannot be changed after creation. Omit task_id to " +
    'update your own task.',
  input: z
    .object({
      task_id: optionalTaskId,
      title: taskTitle().optional().describe('New title, at most 60 characters.'),
      description: description('New description.'),
      state: TaskStateSchema.optional().describe('New state, e.g. "in_progress" or "done".'),
    })
    .strict()
    .refine((v) => v.title !== undefined || v.description !== undefined || v.state !== undefined, {
      message: 'set at least one of title, description or state',
    }),
});

export const messageTaskTool = defineTool({
  name: 'message_task_kandev',
  description:
    "Send a prompt to another task's agent; it is queued until that agent's current turn ends. To answer a " +
    'question from an autopilot subtask, pass its question id as reply_to_question_id: the first answer wins and ' +
    'a retry with the same id is harmless.',
  input: z
    .object({
      task_id: taskId('The task to message (its full id).'),
      prompt: promptText().describe("The message for that task's agent."),
      reply_to_question_id: toolId()
        .optional()
        .describe('Id of the pending question from your direct autopilot child that this message answers.'),
    })
    .strict(),
});

export const stopTaskTool = defineTool({
  name: 'stop_task_kandev',
  description:
    'Stop the running agent of one of your direct subtasks. It only halts work (nothing is deleted); use ' +
    'message_task_kandev afterwards to give new instructions.',
  input: z
    .object({
      task_id: taskId('The direct subtask to stop.'),
      reason: nonBlankText(500).optional().describe('Why it is stopped; recorded on the task.'),
    })
    .strict(),
});

export const listTaskSessionsTool = defineTool({
  name: 'list_task_sessions_kandev',
  description: "List a task's agent sessions, newest first, with state and timestamps. Omit task_id for your own task.",
  readOnly: true,
  input: z.object({ task_id: optionalTaskId }).strict(),
});

export const getTaskConversationTool = defineTool({
  name: 'get_task_conversation_kandev',
  description:
    "Read a task's conversation (prompts, agent messages, questions), oldest first, one page at a time. Pass " +
    'the returned next_cursor to read on. Omit task_id for your own task.',
  readOnly: true,
  input: z.object({ task_id: optionalTaskId, cursor: pageCursor(), limit: pageLimit() }).strict(),
});

export const stepCompleteTool = defineTool({
  name: 'step_complete_kandev',
  description:
    'Signal that everything the current workflow step asks for is done. Call it once, as the last action of ' +
    'the step, not for partial progress. The summary is shown to the user and handed to the next step.',
  input: z
    .object({
      summary: nonBlankText(4000).describe('What was done in this step, in plain text.'),
      handoff: z.string().max(4000).optional().describe('Context the next step needs (decisions, follow-ups).'),
    })
    .strict(),
});
