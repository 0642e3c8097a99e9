import type { LaunchConfig, Provider, QuestionCapability, Surface } from '@kandev/protocol';

/** What decides a session's tools: a typed, normalised view of its launch config. */
export interface ToolContext {
  readonly surface: Surface;
  readonly questionCapability: QuestionCapability;
  readonly providers: ReadonlySet<Provider>;
  readonly ownsTaskTitle: boolean;
}

export function toolContextFromConfig(config: LaunchConfig): ToolContext {
  return {
    surface: config.surface,
    questionCapability: config.questionCapability,
    providers: new Set(config.providers),
    ownsTaskTitle: config.ownsTaskTitle,
  };
}
