import { z } from 'zod';
import { defineTool } from './tool-definition';
import { taskTitle } from './tool-inputs';

export const setTaskTitleTool = defineTool({
  name: 'set_task_title_kandev',
  description:
    "Replace your task's provisional title with a short sentence-case phrase (about 6 words) naming the " +
    'requested outcome. Call it early, once you understand the task.',
  input: z.object({ title: taskTitle().describe('The new title, at most 60 characters.') }).strict(),
});
