import type { Provider } from '../provider';
import type { QuestionCapability } from '../question-capability';
import type { Surface } from '../surface';
import type { ToolContext } from './tool-context';

/**
 * Enable rules for tool groups. They only combine positively (there is no `not`): exclusions such as
 * "user or parent question" are settled by the backend when it picks the single question capability.
 */
export type Rule = (context: ToolContext) => boolean;

/** The session runs on one of these surfaces. */
export const on =
  (...surfaces: Surface[]): Rule =>
  (context) =>
    surfaces.includes(context.surface);

/** The session's question capability is this one. */
export const asks =
  (capability: QuestionCapability): Rule =>
  (context) =>
    context.questionCapability === capability;

/** A repository of this provider is attached to the task. */
export const via =
  (provider: Provider): Rule =>
  (context) =>
    context.providers.has(provider);

/** The session owns its task's title. */
export const ownsTitle: Rule = (context) => context.ownsTaskTitle;

/** Every rule holds. */
export const all =
  (...rules: Rule[]): Rule =>
  (context) =>
    rules.every((rule) => rule(context));
