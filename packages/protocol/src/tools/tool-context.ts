import type { LaunchConfig } from '../launch-config';
import type { Provider } from '../provider';
import type { QuestionCapability } from '../question-capability';
import type { Surface } from '../surface';

/** What decides a session's tools: a typed, normalised view of its launch config. */
export interface ToolContext {
  readonly surface: Surface;
  readonly questionCapability: QuestionCapability;
  readonly providers: ReadonlySet<Provider>;
  readonly ownsTaskTitle: boolean;
}

export function toolContextFromConfig(
  config: Pick<LaunchConfig, 'surface' | 'questionCapability' | 'providers' | 'ownsTaskTitle'>,
): ToolContext {
  return {
    surface: config.surface,
    questionCapability: config.questionCapability,
    providers: new Set(config.providers),
    ownsTaskTitle: config.ownsTaskTitle,
  };
}
