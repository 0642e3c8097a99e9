// backend and agentctl never import each other, so each declares the task tool inputs. This keeps the
// declarations in step: the same properties (and required ones), the usual calls accepted by both,
// and the backend at least as strict (what it accepts, agentctl accepts too).
import { z } from 'zod';
import {
  listAgentProfiles,
  listRepositories,
  listWorkspaces,
} from '../../packages/agentctl/src/tools/configuration-tools';
import * as agentctlTools from '../../packages/agentctl/src/tools/task-tools';
import { setTaskTitle } from '../../packages/agentctl/src/tools/task-title-tools';
import type { ToolDefinition } from '../../packages/agentctl/src/tools/tool-definition';
import { addWorkspaceSources } from '../../packages/agentctl/src/tools/workspace-source-tools';
import * as backend from '../../packages/backend/src/tasks/task-tool-schemas';

const CASES: [ToolDefinition, z.ZodType, unknown[]][] = [
  [agentctlTools.listTasks, backend.ListTasksArgsSchema, [{}, { parent_id: 'self', state: 'done', limit: 5 }]],
  [agentctlTools.getTask, backend.GetTaskArgsSchema, [{}, { task_id: 't1' }]],
  [
    agentctlTools.createTask,
    backend.CreateTaskArgsSchema,
    [{ title: 'T' }, { title: 'T', prompt: 'p', parent_id: 'self', autopilot: true, start_agent: false }],
  ],
  [agentctlTools.updateTask, backend.UpdateTaskArgsSchema, [{ state: 'review' }, { task_id: 't', title: 'x' }]],
  [
    agentctlTools.messageTask,
    backend.MessageTaskArgsSchema,
    [{ task_id: 't', prompt: 'p', reply_to_question_id: 'q' }],
  ],
  [agentctlTools.stopTask, backend.StopTaskArgsSchema, [{ task_id: 't' }, { task_id: 't', reason: 'r' }]],
  [agentctlTools.listTaskSessions, backend.ListTaskSessionsArgsSchema, [{}, { task_id: 't' }]],
  [agentctlTools.getTaskConversation, backend.GetTaskConversationArgsSchema, [{ cursor: 'c', limit: 10 }]],
  [agentctlTools.stepComplete, backend.StepCompleteArgsSchema, [{ summary: 's' }, { summary: 's', handoff: 'h' }]],
  [setTaskTitle, backend.SetTaskTitleArgsSchema, [{ title: 'Short title' }]],
  [
    addWorkspaceSources,
    backend.AddWorkspaceSourcesArgsSchema,
    [
      {
        sources: [
          { repository_id: 'r' },
          { remote_url: 'https://gitlab.com/a/b', provider: 'gitlab', base_branch: 'main' },
        ],
      },
    ],
  ],
];

/** Only the envelope: property names and which are required. */
function envelope(schema: z.ZodType): { properties: string[]; required: string[] } {
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: object; required?: string[] };
  return { properties: Object.keys(json.properties ?? {}).sort(), required: [...(json.required ?? [])].sort() };
}

const OUTSIDERS = [
  {},
  { task_id: '' },
  { title: '' },
  { title: 'x'.repeat(61) },
  { state: 'bogus' },
  { prompt: ' ', task_id: 't' },
  { limit: 0 },
  { summary: '' },
  { sources: [] },
  { task_id: 't', session_id: 's' },
  { autopilot: true, title: 'x' },
];

describe('task tool inputs: backend and agentctl declare the same envelopes', () => {
  test.each(CASES.map(([tool, schema, samples]) => [tool.name, tool, schema, samples] as const))(
    '%s',
    (_name, tool, schema, samples) => {
      expect(envelope(schema)).toEqual(envelope(tool.input));
      for (const sample of samples) {
        expect({ sample, backend: schema.safeParse(sample).success }).toEqual({ sample, backend: true });
        expect({ sample, agentctl: tool.input.safeParse(sample).success }).toEqual({ sample, agentctl: true });
      }
      for (const sample of [...OUTSIDERS, ...samples]) {
        if (schema.safeParse(sample).success) expect(tool.input.safeParse(sample).success).toBe(true);
      }
    },
  );

  test('the configuration tools take the inputs agentctl advertises', () => {
    expect(Object.keys(listWorkspaces.input.shape)).toEqual([]);
    expect(Object.keys(listRepositories.input.shape)).toEqual(['workspace_id']);
    expect(Object.keys(listAgentProfiles.input.shape)).toEqual([]);
  });
});
