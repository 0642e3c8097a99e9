export * from './errors';
export * from './wire';
export * from './provider';
export * from './question-capability';
export * from './surface';
export * from './permission';
export * from './event-types';
export * from './update-outcome';
export * from './revision-decision';
export * from './launch-config';
export * from './session-id';
export * from './session-state';
export * from './agent-runtime';
export * from './session-event';
export * from './session-event-wire';
export * from './control-auth';
export * from './canonical-json';
export * from './channel-credentials';
export * from './health';
export * from './http-timeouts';
export type { AgentCtlClient, AgentCtlHandlers } from './generated/kandev/agentctl/v1/AgentCtl';
export type { LaunchConfig__Output as WireLaunchConfigOutput } from './generated/kandev/agentctl/v1/LaunchConfig';
export type { RestoreSessionRequest__Output as WireRestoreSessionRequestOutput } from './generated/kandev/agentctl/v1/RestoreSessionRequest';
export type { SessionState__Output as WireSessionStateOutput } from './generated/kandev/agentctl/v1/SessionState';
export type {
  ProviderUpdateResults as WireProviderUpdateResults,
  ProviderUpdateResults__Output as WireProviderUpdateResultsOutput,
} from './generated/kandev/agentctl/v1/ProviderUpdateResults';
export type {
  ProviderUpdatesCall as WireProviderUpdatesCall,
  ProviderUpdatesCall__Output as WireProviderUpdatesCallOutput,
} from './generated/kandev/agentctl/v1/ProviderUpdatesCall';
export type {
  ProviderUpdatesAnswer as WireProviderUpdatesAnswer,
  ProviderUpdatesAnswer__Output as WireProviderUpdatesAnswerOutput,
} from './generated/kandev/agentctl/v1/ProviderUpdatesAnswer';
export type { ProvidersHeld__Output as WireProvidersHeldOutput } from './generated/kandev/agentctl/v1/ProvidersHeld';
export type { ProviderUpdateResult as WireProviderUpdateResult } from './generated/kandev/agentctl/v1/ProviderUpdateResult';
export type { ProviderUpdate__Output as WireProviderUpdateOutput } from './generated/kandev/agentctl/v1/ProviderUpdate';
export type { ProviderUpdateBatch__Output as WireProviderUpdateBatchOutput } from './generated/kandev/agentctl/v1/ProviderUpdateBatch';
export type {
  BackendMessage as WireBackendMessage,
  BackendMessage__Output as WireBackendMessageOutput,
} from './generated/kandev/agentctl/v1/BackendMessage';
export type {
  AgentctlMessage as WireAgentctlMessage,
  AgentctlMessage__Output as WireAgentctlMessageOutput,
} from './generated/kandev/agentctl/v1/AgentctlMessage';
export type {
  ToolCallRequest as WireToolCallRequest,
  ToolCallRequest__Output as WireToolCallRequestOutput,
} from './generated/kandev/agentctl/v1/ToolCallRequest';
export type {
  ToolCallResult as WireToolCallResult,
  ToolCallResult__Output as WireToolCallResultOutput,
} from './generated/kandev/agentctl/v1/ToolCallResult';
export type { ToolCallProgress__Output as WireToolCallProgressOutput } from './generated/kandev/agentctl/v1/ToolCallProgress';
export type { PermissionRequest__Output as WirePermissionRequestOutput } from './generated/kandev/agentctl/v1/PermissionRequest';
export type { PermissionDecision__Output as WirePermissionDecisionOutput } from './generated/kandev/agentctl/v1/PermissionDecision';
export type { SessionEvent__Output as WireSessionEventOutput } from './generated/kandev/agentctl/v1/SessionEvent';
export type { PromptResponse__Output as WirePromptResponseOutput } from './generated/kandev/agentctl/v1/PromptResponse';
export type { CancelTurnResponse__Output as WireCancelTurnResponseOutput } from './generated/kandev/agentctl/v1/CancelTurnResponse';
export * from './task-state';
export * from './tools/tool-definition';
export * from './tools/tool-inputs';
export * from './tools/prompt-text';
export * from './tools/tool-context';
export * from './tools/tool-groups';
export * from './tools/tool-access';
export * from './tools/task-tools';
export * from './tools/task-title-tools';
export * from './tools/question-tools';
export * from './tools/review-automation-tools';
export * from './tools/configuration-tools';
export * from './tools/workspace-source-tools';
export * from './well-formed-text';
