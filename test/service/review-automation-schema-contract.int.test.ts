// backend and agentctl never import each other, so each declares the review-automation tool inputs.
// This keeps the two declarations the same shape: same properties, same types and bounds.
import { z } from 'zod';
import {
  getTaskMrAutomation,
  getTaskPrAutomation,
  updateTaskMrAutomation,
  updateTaskPrAutomation,
} from '../../packages/agentctl/src/tools/review-automation-tools';
import {
  GetAutomationInputSchema,
  UpdateMrAutomationInputSchema,
  UpdatePrAutomationInputSchema,
} from '../../packages/backend/src/provider-automation/review-automation';

/** The JSON Schema without descriptions and the backend's extra upper bound on ids. */
function shape(schema: z.ZodType): unknown {
  return JSON.parse(
    JSON.stringify(z.toJSONSchema(schema, { io: 'input' }), (key, value: unknown) =>
      key === 'description' || key === 'maxLength' ? undefined : value,
    ),
  );
}

describe('review-automation tool inputs: backend and agentctl declare the same shapes', () => {
  test.each([
    ['get_task_pr_automation_kandev', getTaskPrAutomation.input, GetAutomationInputSchema],
    ['get_task_mr_automation_kandev', getTaskMrAutomation.input, GetAutomationInputSchema],
    ['update_task_pr_automation_kandev', updateTaskPrAutomation.input, UpdatePrAutomationInputSchema],
    ['update_task_mr_automation_kandev', updateTaskMrAutomation.input, UpdateMrAutomationInputSchema],
  ])('%s', (_name, agentctl: z.ZodType, backend: z.ZodType) => {
    expect(shape(backend)).toEqual(shape(agentctl));
  });

  test('the backend is at least as strict: what it accepts, agentctl accepts too', () => {
    const samples = [
      {},
      { auto_fix_enabled: true },
      { repository_id: 'r', pr_number: 1, prompt_on_closed: true },
      { repository_id: 'r', mr_iid: 1, prompt_on_closed: true },
    ];
    for (const sample of samples) {
      if (UpdatePrAutomationInputSchema.safeParse(sample).success) {
        expect(updateTaskPrAutomation.input.safeParse(sample).success).toBe(true);
      }
      if (UpdateMrAutomationInputSchema.safeParse(sample).success) {
        expect(updateTaskMrAutomation.input.safeParse(sample).success).toBe(true);
      }
    }
  });
});
