import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AgentCommand as _kandev_agentctl_v1_AgentCommand, AgentCommand__Output as _kandev_agentctl_v1_AgentCommand__Output } from './kandev/agentctl/v1/AgentCommand';
import type { AgentCtlClient as _kandev_agentctl_v1_AgentCtlClient, AgentCtlDefinition as _kandev_agentctl_v1_AgentCtlDefinition } from './kandev/agentctl/v1/AgentCtl';
import type { GetSessionRequest as _kandev_agentctl_v1_GetSessionRequest, GetSessionRequest__Output as _kandev_agentctl_v1_GetSessionRequest__Output } from './kandev/agentctl/v1/GetSessionRequest';
import type { LaunchConfig as _kandev_agentctl_v1_LaunchConfig, LaunchConfig__Output as _kandev_agentctl_v1_LaunchConfig__Output } from './kandev/agentctl/v1/LaunchConfig';
import type { ListSessionsRequest as _kandev_agentctl_v1_ListSessionsRequest, ListSessionsRequest__Output as _kandev_agentctl_v1_ListSessionsRequest__Output } from './kandev/agentctl/v1/ListSessionsRequest';
import type { ListSessionsResponse as _kandev_agentctl_v1_ListSessionsResponse, ListSessionsResponse__Output as _kandev_agentctl_v1_ListSessionsResponse__Output } from './kandev/agentctl/v1/ListSessionsResponse';
import type { SessionState as _kandev_agentctl_v1_SessionState, SessionState__Output as _kandev_agentctl_v1_SessionState__Output } from './kandev/agentctl/v1/SessionState';
import type { StopSessionRequest as _kandev_agentctl_v1_StopSessionRequest, StopSessionRequest__Output as _kandev_agentctl_v1_StopSessionRequest__Output } from './kandev/agentctl/v1/StopSessionRequest';
import type { StopSessionResponse as _kandev_agentctl_v1_StopSessionResponse, StopSessionResponse__Output as _kandev_agentctl_v1_StopSessionResponse__Output } from './kandev/agentctl/v1/StopSessionResponse';
import type { UpdateProvidersRequest as _kandev_agentctl_v1_UpdateProvidersRequest, UpdateProvidersRequest__Output as _kandev_agentctl_v1_UpdateProvidersRequest__Output } from './kandev/agentctl/v1/UpdateProvidersRequest';
import type { UpdateProvidersResponse as _kandev_agentctl_v1_UpdateProvidersResponse, UpdateProvidersResponse__Output as _kandev_agentctl_v1_UpdateProvidersResponse__Output } from './kandev/agentctl/v1/UpdateProvidersResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  kandev: {
    agentctl: {
      v1: {
        AgentCommand: MessageTypeDefinition<_kandev_agentctl_v1_AgentCommand, _kandev_agentctl_v1_AgentCommand__Output>
        AgentCtl: SubtypeConstructor<typeof grpc.Client, _kandev_agentctl_v1_AgentCtlClient> & { service: _kandev_agentctl_v1_AgentCtlDefinition }
        GetSessionRequest: MessageTypeDefinition<_kandev_agentctl_v1_GetSessionRequest, _kandev_agentctl_v1_GetSessionRequest__Output>
        LaunchConfig: MessageTypeDefinition<_kandev_agentctl_v1_LaunchConfig, _kandev_agentctl_v1_LaunchConfig__Output>
        ListSessionsRequest: MessageTypeDefinition<_kandev_agentctl_v1_ListSessionsRequest, _kandev_agentctl_v1_ListSessionsRequest__Output>
        ListSessionsResponse: MessageTypeDefinition<_kandev_agentctl_v1_ListSessionsResponse, _kandev_agentctl_v1_ListSessionsResponse__Output>
        Provider: EnumTypeDefinition
        QuestionCapability: EnumTypeDefinition
        SessionState: MessageTypeDefinition<_kandev_agentctl_v1_SessionState, _kandev_agentctl_v1_SessionState__Output>
        StopSessionRequest: MessageTypeDefinition<_kandev_agentctl_v1_StopSessionRequest, _kandev_agentctl_v1_StopSessionRequest__Output>
        StopSessionResponse: MessageTypeDefinition<_kandev_agentctl_v1_StopSessionResponse, _kandev_agentctl_v1_StopSessionResponse__Output>
        Surface: EnumTypeDefinition
        UpdateOutcome: EnumTypeDefinition
        UpdateProvidersRequest: MessageTypeDefinition<_kandev_agentctl_v1_UpdateProvidersRequest, _kandev_agentctl_v1_UpdateProvidersRequest__Output>
        UpdateProvidersResponse: MessageTypeDefinition<_kandev_agentctl_v1_UpdateProvidersResponse, _kandev_agentctl_v1_UpdateProvidersResponse__Output>
      }
    }
  }
}

