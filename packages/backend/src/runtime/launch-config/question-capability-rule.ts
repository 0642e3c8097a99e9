import type { QuestionCapability } from '@kandev/protocol';

/**
 * Exactly one question owner per session (docs/autopilot.md#who-can-ask-whom):
 * normal task -> the operator ('user'); autopilot with a direct parent -> 'parent'; autopilot root -> 'none'.
 */
export function questionCapabilityFor(task: { autopilot: boolean; hasParent: boolean }): QuestionCapability {
  if (!task.autopilot) return 'user';
  return task.hasParent ? 'parent' : 'none';
}
