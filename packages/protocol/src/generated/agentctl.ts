import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AgentCommand as _kandev_agentctl_v1_AgentCommand, AgentCommand__Output as _kandev_agentctl_v1_AgentCommand__Output } from './kandev/agentctl/v1/AgentCommand';
import type { AgentCtlClient as _kandev_agentctl_v1_AgentCtlClient, AgentCtlDefinition as _kandev_agentctl_v1_AgentCtlDefinition } from './kandev/agentctl/v1/AgentCtl';
import type { AgentExited as _kandev_agentctl_v1_AgentExited, AgentExited__Output as _kandev_agentctl_v1_AgentExited__Output } from './kandev/agentctl/v1/AgentExited';
import type { AgentMessage as _kandev_agentctl_v1_AgentMessage, AgentMessage__Output as _kandev_agentctl_v1_AgentMessage__Output } from './kandev/agentctl/v1/AgentMessage';
import type { AgentNotice as _kandev_agentctl_v1_AgentNotice, AgentNotice__Output as _kandev_agentctl_v1_AgentNotice__Output } from './kandev/agentctl/v1/AgentNotice';
import type { AgentStarted as _kandev_agentctl_v1_AgentStarted, AgentStarted__Output as _kandev_agentctl_v1_AgentStarted__Output } from './kandev/agentctl/v1/AgentStarted';
import type { AgentState as _kandev_agentctl_v1_AgentState, AgentState__Output as _kandev_agentctl_v1_AgentState__Output } from './kandev/agentctl/v1/AgentState';
import type { AgentctlMessage as _kandev_agentctl_v1_AgentctlMessage, AgentctlMessage__Output as _kandev_agentctl_v1_AgentctlMessage__Output } from './kandev/agentctl/v1/AgentctlMessage';
import type { AttachAccepted as _kandev_agentctl_v1_AttachAccepted, AttachAccepted__Output as _kandev_agentctl_v1_AttachAccepted__Output } from './kandev/agentctl/v1/AttachAccepted';
import type { AttachHello as _kandev_agentctl_v1_AttachHello, AttachHello__Output as _kandev_agentctl_v1_AttachHello__Output } from './kandev/agentctl/v1/AttachHello';
import type { BackendMessage as _kandev_agentctl_v1_BackendMessage, BackendMessage__Output as _kandev_agentctl_v1_BackendMessage__Output } from './kandev/agentctl/v1/BackendMessage';
import type { CancelTurnRequest as _kandev_agentctl_v1_CancelTurnRequest, CancelTurnRequest__Output as _kandev_agentctl_v1_CancelTurnRequest__Output } from './kandev/agentctl/v1/CancelTurnRequest';
import type { CancelTurnResponse as _kandev_agentctl_v1_CancelTurnResponse, CancelTurnResponse__Output as _kandev_agentctl_v1_CancelTurnResponse__Output } from './kandev/agentctl/v1/CancelTurnResponse';
import type { FileDiff as _kandev_agentctl_v1_FileDiff, FileDiff__Output as _kandev_agentctl_v1_FileDiff__Output } from './kandev/agentctl/v1/FileDiff';
import type { GetSessionRequest as _kandev_agentctl_v1_GetSessionRequest, GetSessionRequest__Output as _kandev_agentctl_v1_GetSessionRequest__Output } from './kandev/agentctl/v1/GetSessionRequest';
import type { LaunchConfig as _kandev_agentctl_v1_LaunchConfig, LaunchConfig__Output as _kandev_agentctl_v1_LaunchConfig__Output } from './kandev/agentctl/v1/LaunchConfig';
import type { ListSessionsRequest as _kandev_agentctl_v1_ListSessionsRequest, ListSessionsRequest__Output as _kandev_agentctl_v1_ListSessionsRequest__Output } from './kandev/agentctl/v1/ListSessionsRequest';
import type { ListSessionsResponse as _kandev_agentctl_v1_ListSessionsResponse, ListSessionsResponse__Output as _kandev_agentctl_v1_ListSessionsResponse__Output } from './kandev/agentctl/v1/ListSessionsResponse';
import type { PermissionDecision as _kandev_agentctl_v1_PermissionDecision, PermissionDecision__Output as _kandev_agentctl_v1_PermissionDecision__Output } from './kandev/agentctl/v1/PermissionDecision';
import type { PermissionOption as _kandev_agentctl_v1_PermissionOption, PermissionOption__Output as _kandev_agentctl_v1_PermissionOption__Output } from './kandev/agentctl/v1/PermissionOption';
import type { PermissionRequest as _kandev_agentctl_v1_PermissionRequest, PermissionRequest__Output as _kandev_agentctl_v1_PermissionRequest__Output } from './kandev/agentctl/v1/PermissionRequest';
import type { PlanEntry as _kandev_agentctl_v1_PlanEntry, PlanEntry__Output as _kandev_agentctl_v1_PlanEntry__Output } from './kandev/agentctl/v1/PlanEntry';
import type { PlanUpdate as _kandev_agentctl_v1_PlanUpdate, PlanUpdate__Output as _kandev_agentctl_v1_PlanUpdate__Output } from './kandev/agentctl/v1/PlanUpdate';
import type { PromptRequest as _kandev_agentctl_v1_PromptRequest, PromptRequest__Output as _kandev_agentctl_v1_PromptRequest__Output } from './kandev/agentctl/v1/PromptRequest';
import type { PromptResponse as _kandev_agentctl_v1_PromptResponse, PromptResponse__Output as _kandev_agentctl_v1_PromptResponse__Output } from './kandev/agentctl/v1/PromptResponse';
import type { ProviderUpdate as _kandev_agentctl_v1_ProviderUpdate, ProviderUpdate__Output as _kandev_agentctl_v1_ProviderUpdate__Output } from './kandev/agentctl/v1/ProviderUpdate';
import type { ProviderUpdateBatch as _kandev_agentctl_v1_ProviderUpdateBatch, ProviderUpdateBatch__Output as _kandev_agentctl_v1_ProviderUpdateBatch__Output } from './kandev/agentctl/v1/ProviderUpdateBatch';
import type { ProviderUpdateResult as _kandev_agentctl_v1_ProviderUpdateResult, ProviderUpdateResult__Output as _kandev_agentctl_v1_ProviderUpdateResult__Output } from './kandev/agentctl/v1/ProviderUpdateResult';
import type { ProviderUpdateResults as _kandev_agentctl_v1_ProviderUpdateResults, ProviderUpdateResults__Output as _kandev_agentctl_v1_ProviderUpdateResults__Output } from './kandev/agentctl/v1/ProviderUpdateResults';
import type { ProviderUpdatesAnswer as _kandev_agentctl_v1_ProviderUpdatesAnswer, ProviderUpdatesAnswer__Output as _kandev_agentctl_v1_ProviderUpdatesAnswer__Output } from './kandev/agentctl/v1/ProviderUpdatesAnswer';
import type { ProviderUpdatesCall as _kandev_agentctl_v1_ProviderUpdatesCall, ProviderUpdatesCall__Output as _kandev_agentctl_v1_ProviderUpdatesCall__Output } from './kandev/agentctl/v1/ProviderUpdatesCall';
import type { ProvidersHeld as _kandev_agentctl_v1_ProvidersHeld, ProvidersHeld__Output as _kandev_agentctl_v1_ProvidersHeld__Output } from './kandev/agentctl/v1/ProvidersHeld';
import type { RestoreSessionRequest as _kandev_agentctl_v1_RestoreSessionRequest, RestoreSessionRequest__Output as _kandev_agentctl_v1_RestoreSessionRequest__Output } from './kandev/agentctl/v1/RestoreSessionRequest';
import type { SessionEvent as _kandev_agentctl_v1_SessionEvent, SessionEvent__Output as _kandev_agentctl_v1_SessionEvent__Output } from './kandev/agentctl/v1/SessionEvent';
import type { SessionState as _kandev_agentctl_v1_SessionState, SessionState__Output as _kandev_agentctl_v1_SessionState__Output } from './kandev/agentctl/v1/SessionState';
import type { StopSessionRequest as _kandev_agentctl_v1_StopSessionRequest, StopSessionRequest__Output as _kandev_agentctl_v1_StopSessionRequest__Output } from './kandev/agentctl/v1/StopSessionRequest';
import type { StopSessionResponse as _kandev_agentctl_v1_StopSessionResponse, StopSessionResponse__Output as _kandev_agentctl_v1_StopSessionResponse__Output } from './kandev/agentctl/v1/StopSessionResponse';
import type { ToolCallNotice as _kandev_agentctl_v1_ToolCallNotice, ToolCallNotice__Output as _kandev_agentctl_v1_ToolCallNotice__Output } from './kandev/agentctl/v1/ToolCallNotice';
import type { ToolCallProgress as _kandev_agentctl_v1_ToolCallProgress, ToolCallProgress__Output as _kandev_agentctl_v1_ToolCallProgress__Output } from './kandev/agentctl/v1/ToolCallProgress';
import type { ToolCallRequest as _kandev_agentctl_v1_ToolCallRequest, ToolCallRequest__Output as _kandev_agentctl_v1_ToolCallRequest__Output } from './kandev/agentctl/v1/ToolCallRequest';
import type { ToolCallResult as _kandev_agentctl_v1_ToolCallResult, ToolCallResult__Output as _kandev_agentctl_v1_ToolCallResult__Output } from './kandev/agentctl/v1/ToolCallResult';
import type { ToolError as _kandev_agentctl_v1_ToolError, ToolError__Output as _kandev_agentctl_v1_ToolError__Output } from './kandev/agentctl/v1/ToolError';
import type { ToolOutput as _kandev_agentctl_v1_ToolOutput, ToolOutput__Output as _kandev_agentctl_v1_ToolOutput__Output } from './kandev/agentctl/v1/ToolOutput';
import type { TurnEnded as _kandev_agentctl_v1_TurnEnded, TurnEnded__Output as _kandev_agentctl_v1_TurnEnded__Output } from './kandev/agentctl/v1/TurnEnded';
import type { TurnRecord as _kandev_agentctl_v1_TurnRecord, TurnRecord__Output as _kandev_agentctl_v1_TurnRecord__Output } from './kandev/agentctl/v1/TurnRecord';
import type { TurnStarted as _kandev_agentctl_v1_TurnStarted, TurnStarted__Output as _kandev_agentctl_v1_TurnStarted__Output } from './kandev/agentctl/v1/TurnStarted';
import type { UpdateFailure as _kandev_agentctl_v1_UpdateFailure, UpdateFailure__Output as _kandev_agentctl_v1_UpdateFailure__Output } from './kandev/agentctl/v1/UpdateFailure';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  kandev: {
    agentctl: {
      v1: {
        AgentCommand: MessageTypeDefinition<_kandev_agentctl_v1_AgentCommand, _kandev_agentctl_v1_AgentCommand__Output>
        AgentCtl: SubtypeConstructor<typeof grpc.Client, _kandev_agentctl_v1_AgentCtlClient> & { service: _kandev_agentctl_v1_AgentCtlDefinition }
        AgentExited: MessageTypeDefinition<_kandev_agentctl_v1_AgentExited, _kandev_agentctl_v1_AgentExited__Output>
        AgentMessage: MessageTypeDefinition<_kandev_agentctl_v1_AgentMessage, _kandev_agentctl_v1_AgentMessage__Output>
        AgentNotice: MessageTypeDefinition<_kandev_agentctl_v1_AgentNotice, _kandev_agentctl_v1_AgentNotice__Output>
        AgentStarted: MessageTypeDefinition<_kandev_agentctl_v1_AgentStarted, _kandev_agentctl_v1_AgentStarted__Output>
        AgentState: MessageTypeDefinition<_kandev_agentctl_v1_AgentState, _kandev_agentctl_v1_AgentState__Output>
        AgentStatus: EnumTypeDefinition
        AgentctlMessage: MessageTypeDefinition<_kandev_agentctl_v1_AgentctlMessage, _kandev_agentctl_v1_AgentctlMessage__Output>
        AttachAccepted: MessageTypeDefinition<_kandev_agentctl_v1_AttachAccepted, _kandev_agentctl_v1_AttachAccepted__Output>
        AttachHello: MessageTypeDefinition<_kandev_agentctl_v1_AttachHello, _kandev_agentctl_v1_AttachHello__Output>
        BackendMessage: MessageTypeDefinition<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_BackendMessage__Output>
        CancelTurnRequest: MessageTypeDefinition<_kandev_agentctl_v1_CancelTurnRequest, _kandev_agentctl_v1_CancelTurnRequest__Output>
        CancelTurnResponse: MessageTypeDefinition<_kandev_agentctl_v1_CancelTurnResponse, _kandev_agentctl_v1_CancelTurnResponse__Output>
        FileDiff: MessageTypeDefinition<_kandev_agentctl_v1_FileDiff, _kandev_agentctl_v1_FileDiff__Output>
        GetSessionRequest: MessageTypeDefinition<_kandev_agentctl_v1_GetSessionRequest, _kandev_agentctl_v1_GetSessionRequest__Output>
        LaunchConfig: MessageTypeDefinition<_kandev_agentctl_v1_LaunchConfig, _kandev_agentctl_v1_LaunchConfig__Output>
        ListSessionsRequest: MessageTypeDefinition<_kandev_agentctl_v1_ListSessionsRequest, _kandev_agentctl_v1_ListSessionsRequest__Output>
        ListSessionsResponse: MessageTypeDefinition<_kandev_agentctl_v1_ListSessionsResponse, _kandev_agentctl_v1_ListSessionsResponse__Output>
        PermissionDecision: MessageTypeDefinition<_kandev_agentctl_v1_PermissionDecision, _kandev_agentctl_v1_PermissionDecision__Output>
        PermissionOption: MessageTypeDefinition<_kandev_agentctl_v1_PermissionOption, _kandev_agentctl_v1_PermissionOption__Output>
        PermissionPolicy: EnumTypeDefinition
        PermissionRequest: MessageTypeDefinition<_kandev_agentctl_v1_PermissionRequest, _kandev_agentctl_v1_PermissionRequest__Output>
        PlanEntry: MessageTypeDefinition<_kandev_agentctl_v1_PlanEntry, _kandev_agentctl_v1_PlanEntry__Output>
        PlanUpdate: MessageTypeDefinition<_kandev_agentctl_v1_PlanUpdate, _kandev_agentctl_v1_PlanUpdate__Output>
        PromptRequest: MessageTypeDefinition<_kandev_agentctl_v1_PromptRequest, _kandev_agentctl_v1_PromptRequest__Output>
        PromptResponse: MessageTypeDefinition<_kandev_agentctl_v1_PromptResponse, _kandev_agentctl_v1_PromptResponse__Output>
        Provider: EnumTypeDefinition
        ProviderUpdate: MessageTypeDefinition<_kandev_agentctl_v1_ProviderUpdate, _kandev_agentctl_v1_ProviderUpdate__Output>
        ProviderUpdateBatch: MessageTypeDefinition<_kandev_agentctl_v1_ProviderUpdateBatch, _kandev_agentctl_v1_ProviderUpdateBatch__Output>
        ProviderUpdateResult: MessageTypeDefinition<_kandev_agentctl_v1_ProviderUpdateResult, _kandev_agentctl_v1_ProviderUpdateResult__Output>
        ProviderUpdateResults: MessageTypeDefinition<_kandev_agentctl_v1_ProviderUpdateResults, _kandev_agentctl_v1_ProviderUpdateResults__Output>
        ProviderUpdatesAnswer: MessageTypeDefinition<_kandev_agentctl_v1_ProviderUpdatesAnswer, _kandev_agentctl_v1_ProviderUpdatesAnswer__Output>
        ProviderUpdatesCall: MessageTypeDefinition<_kandev_agentctl_v1_ProviderUpdatesCall, _kandev_agentctl_v1_ProviderUpdatesCall__Output>
        ProvidersHeld: MessageTypeDefinition<_kandev_agentctl_v1_ProvidersHeld, _kandev_agentctl_v1_ProvidersHeld__Output>
        QuestionCapability: EnumTypeDefinition
        RestoreSessionRequest: MessageTypeDefinition<_kandev_agentctl_v1_RestoreSessionRequest, _kandev_agentctl_v1_RestoreSessionRequest__Output>
        SessionEvent: MessageTypeDefinition<_kandev_agentctl_v1_SessionEvent, _kandev_agentctl_v1_SessionEvent__Output>
        SessionState: MessageTypeDefinition<_kandev_agentctl_v1_SessionState, _kandev_agentctl_v1_SessionState__Output>
        StopSessionRequest: MessageTypeDefinition<_kandev_agentctl_v1_StopSessionRequest, _kandev_agentctl_v1_StopSessionRequest__Output>
        StopSessionResponse: MessageTypeDefinition<_kandev_agentctl_v1_StopSessionResponse, _kandev_agentctl_v1_StopSessionResponse__Output>
        Surface: EnumTypeDefinition
        ToolCallNotice: MessageTypeDefinition<_kandev_agentctl_v1_ToolCallNotice, _kandev_agentctl_v1_ToolCallNotice__Output>
        ToolCallProgress: MessageTypeDefinition<_kandev_agentctl_v1_ToolCallProgress, _kandev_agentctl_v1_ToolCallProgress__Output>
        ToolCallRequest: MessageTypeDefinition<_kandev_agentctl_v1_ToolCallRequest, _kandev_agentctl_v1_ToolCallRequest__Output>
        ToolCallResult: MessageTypeDefinition<_kandev_agentctl_v1_ToolCallResult, _kandev_agentctl_v1_ToolCallResult__Output>
        ToolError: MessageTypeDefinition<_kandev_agentctl_v1_ToolError, _kandev_agentctl_v1_ToolError__Output>
        ToolOutput: MessageTypeDefinition<_kandev_agentctl_v1_ToolOutput, _kandev_agentctl_v1_ToolOutput__Output>
        TurnEnded: MessageTypeDefinition<_kandev_agentctl_v1_TurnEnded, _kandev_agentctl_v1_TurnEnded__Output>
        TurnRecord: MessageTypeDefinition<_kandev_agentctl_v1_TurnRecord, _kandev_agentctl_v1_TurnRecord__Output>
        TurnStarted: MessageTypeDefinition<_kandev_agentctl_v1_TurnStarted, _kandev_agentctl_v1_TurnStarted__Output>
        TurnStatus: EnumTypeDefinition
        UpdateFailure: MessageTypeDefinition<_kandev_agentctl_v1_UpdateFailure, _kandev_agentctl_v1_UpdateFailure__Output>
        UpdateOutcome: EnumTypeDefinition
      }
    }
  }
}

