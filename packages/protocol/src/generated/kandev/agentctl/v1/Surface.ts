// Original file: proto/kandev/agentctl/v1/agentctl.proto

export const Surface = {
  SURFACE_UNSPECIFIED: 'SURFACE_UNSPECIFIED',
  SURFACE_KANBAN_TASK: 'SURFACE_KANBAN_TASK',
  SURFACE_OFFICE_TASK: 'SURFACE_OFFICE_TASK',
  SURFACE_CONFIGURATION: 'SURFACE_CONFIGURATION',
} as const;

export type Surface =
  | 'SURFACE_UNSPECIFIED'
  | 0
  | 'SURFACE_KANBAN_TASK'
  | 1
  | 'SURFACE_OFFICE_TASK'
  | 2
  | 'SURFACE_CONFIGURATION'
  | 3

export type Surface__Output = typeof Surface[keyof typeof Surface]
