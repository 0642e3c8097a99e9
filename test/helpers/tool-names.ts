/** Tool names as an agent sees them, for asserting exact lists (sorted, no snapshots). */
export const KANBAN_CORE = [
  'add_workspace_sources_kandev',
  'create_task_kandev',
  'get_task_conversation_kandev',
  'get_task_kandev',
  'list_task_sessions_kandev',
  'list_tasks_kandev',
  'message_task_kandev',
  'step_complete_kandev',
  'stop_task_kandev',
  'update_task_kandev',
];
export const PR_PAIR = ['get_task_pr_automation_kandev', 'update_task_pr_automation_kandev'];
export const MR_PAIR = ['get_task_mr_automation_kandev', 'update_task_mr_automation_kandev'];

export const sorted = (names: readonly string[]): string[] => [...names].sort();
