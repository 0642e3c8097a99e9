import type { QuestionCapability } from '@kandev/protocol';

/**
 * Exactly one question owner per session (ADR 2026-08-08):
 * normal task -> the operator ('user'); autopilot with a direct parent -> 'parent'; autopilot root -> 'none'.
 */
export function questionCapabilityFor(task: { autopilot: boolean; hasParent: boolean }): QuestionCapability {
  if (!task.autopilot) return 'user';
  return task.hasParent ? 'parent' : 'none';
}
