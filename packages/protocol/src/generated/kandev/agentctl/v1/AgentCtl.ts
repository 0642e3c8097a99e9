// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AgentctlMessage as _kandev_agentctl_v1_AgentctlMessage, AgentctlMessage__Output as _kandev_agentctl_v1_AgentctlMessage__Output } from '../../../kandev/agentctl/v1/AgentctlMessage';
import type { BackendMessage as _kandev_agentctl_v1_BackendMessage, BackendMessage__Output as _kandev_agentctl_v1_BackendMessage__Output } from '../../../kandev/agentctl/v1/BackendMessage';
import type { GetSessionRequest as _kandev_agentctl_v1_GetSessionRequest, GetSessionRequest__Output as _kandev_agentctl_v1_GetSessionRequest__Output } from '../../../kandev/agentctl/v1/GetSessionRequest';
import type { LaunchConfig as _kandev_agentctl_v1_LaunchConfig, LaunchConfig__Output as _kandev_agentctl_v1_LaunchConfig__Output } from '../../../kandev/agentctl/v1/LaunchConfig';
import type { ListSessionsRequest as _kandev_agentctl_v1_ListSessionsRequest, ListSessionsRequest__Output as _kandev_agentctl_v1_ListSessionsRequest__Output } from '../../../kandev/agentctl/v1/ListSessionsRequest';
import type { ListSessionsResponse as _kandev_agentctl_v1_ListSessionsResponse, ListSessionsResponse__Output as _kandev_agentctl_v1_ListSessionsResponse__Output } from '../../../kandev/agentctl/v1/ListSessionsResponse';
import type { SessionState as _kandev_agentctl_v1_SessionState, SessionState__Output as _kandev_agentctl_v1_SessionState__Output } from '../../../kandev/agentctl/v1/SessionState';
import type { StopSessionRequest as _kandev_agentctl_v1_StopSessionRequest, StopSessionRequest__Output as _kandev_agentctl_v1_StopSessionRequest__Output } from '../../../kandev/agentctl/v1/StopSessionRequest';
import type { StopSessionResponse as _kandev_agentctl_v1_StopSessionResponse, StopSessionResponse__Output as _kandev_agentctl_v1_StopSessionResponse__Output } from '../../../kandev/agentctl/v1/StopSessionResponse';
import type { UpdateProvidersRequest as _kandev_agentctl_v1_UpdateProvidersRequest, UpdateProvidersRequest__Output as _kandev_agentctl_v1_UpdateProvidersRequest__Output } from '../../../kandev/agentctl/v1/UpdateProvidersRequest';
import type { UpdateProvidersResponse as _kandev_agentctl_v1_UpdateProvidersResponse, UpdateProvidersResponse__Output as _kandev_agentctl_v1_UpdateProvidersResponse__Output } from '../../../kandev/agentctl/v1/UpdateProvidersResponse';

export interface AgentCtlClient extends grpc.Client {
  Attach(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage__Output>;
  Attach(options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage__Output>;
  attach(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage__Output>;
  attach(options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage__Output>;
  
  CreateSession(argument: _kandev_agentctl_v1_LaunchConfig, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  CreateSession(argument: _kandev_agentctl_v1_LaunchConfig, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  CreateSession(argument: _kandev_agentctl_v1_LaunchConfig, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  CreateSession(argument: _kandev_agentctl_v1_LaunchConfig, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  createSession(argument: _kandev_agentctl_v1_LaunchConfig, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  createSession(argument: _kandev_agentctl_v1_LaunchConfig, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  createSession(argument: _kandev_agentctl_v1_LaunchConfig, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  createSession(argument: _kandev_agentctl_v1_LaunchConfig, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  
  GetSession(argument: _kandev_agentctl_v1_GetSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _kandev_agentctl_v1_GetSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _kandev_agentctl_v1_GetSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  GetSession(argument: _kandev_agentctl_v1_GetSessionRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  getSession(argument: _kandev_agentctl_v1_GetSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  getSession(argument: _kandev_agentctl_v1_GetSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  getSession(argument: _kandev_agentctl_v1_GetSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  getSession(argument: _kandev_agentctl_v1_GetSessionRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  
  ListSessions(argument: _kandev_agentctl_v1_ListSessionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _kandev_agentctl_v1_ListSessionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _kandev_agentctl_v1_ListSessionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  ListSessions(argument: _kandev_agentctl_v1_ListSessionsRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _kandev_agentctl_v1_ListSessionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _kandev_agentctl_v1_ListSessionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _kandev_agentctl_v1_ListSessionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  listSessions(argument: _kandev_agentctl_v1_ListSessionsRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_ListSessionsResponse__Output>): grpc.ClientUnaryCall;
  
  StopSession(argument: _kandev_agentctl_v1_StopSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  StopSession(argument: _kandev_agentctl_v1_StopSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  StopSession(argument: _kandev_agentctl_v1_StopSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  StopSession(argument: _kandev_agentctl_v1_StopSessionRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  stopSession(argument: _kandev_agentctl_v1_StopSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  stopSession(argument: _kandev_agentctl_v1_StopSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  stopSession(argument: _kandev_agentctl_v1_StopSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  stopSession(argument: _kandev_agentctl_v1_StopSessionRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateProviders(argument: _kandev_agentctl_v1_UpdateProvidersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_UpdateProvidersResponse__Output>): grpc.ClientUnaryCall;
  UpdateProviders(argument: _kandev_agentctl_v1_UpdateProvidersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_UpdateProvidersResponse__Output>): grpc.ClientUnaryCall;
  UpdateProviders(argument: _kandev_agentctl_v1_UpdateProvidersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_UpdateProvidersResponse__Output>): grpc.ClientUnaryCall;
  UpdateProviders(argument: _kandev_agentctl_v1_UpdateProvidersRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_UpdateProvidersResponse__Output>): grpc.ClientUnaryCall;
  updateProviders(argument: _kandev_agentctl_v1_UpdateProvidersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_UpdateProvidersResponse__Output>): grpc.ClientUnaryCall;
  updateProviders(argument: _kandev_agentctl_v1_UpdateProvidersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_UpdateProvidersResponse__Output>): grpc.ClientUnaryCall;
  updateProviders(argument: _kandev_agentctl_v1_UpdateProvidersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_UpdateProvidersResponse__Output>): grpc.ClientUnaryCall;
  updateProviders(argument: _kandev_agentctl_v1_UpdateProvidersRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_UpdateProvidersResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AgentCtlHandlers extends grpc.UntypedServiceImplementation {
  Attach: grpc.handleBidiStreamingCall<_kandev_agentctl_v1_BackendMessage__Output, _kandev_agentctl_v1_AgentctlMessage>;
  
  CreateSession: grpc.handleUnaryCall<_kandev_agentctl_v1_LaunchConfig__Output, _kandev_agentctl_v1_SessionState>;
  
  GetSession: grpc.handleUnaryCall<_kandev_agentctl_v1_GetSessionRequest__Output, _kandev_agentctl_v1_SessionState>;
  
  ListSessions: grpc.handleUnaryCall<_kandev_agentctl_v1_ListSessionsRequest__Output, _kandev_agentctl_v1_ListSessionsResponse>;
  
  StopSession: grpc.handleUnaryCall<_kandev_agentctl_v1_StopSessionRequest__Output, _kandev_agentctl_v1_StopSessionResponse>;
  
  UpdateProviders: grpc.handleUnaryCall<_kandev_agentctl_v1_UpdateProvidersRequest__Output, _kandev_agentctl_v1_UpdateProvidersResponse>;
  
}

export interface AgentCtlDefinition extends grpc.ServiceDefinition {
  Attach: MethodDefinition<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage, _kandev_agentctl_v1_BackendMessage__Output, _kandev_agentctl_v1_AgentctlMessage__Output>
  CreateSession: MethodDefinition<_kandev_agentctl_v1_LaunchConfig, _kandev_agentctl_v1_SessionState, _kandev_agentctl_v1_LaunchConfig__Output, _kandev_agentctl_v1_SessionState__Output>
  GetSession: MethodDefinition<_kandev_agentctl_v1_GetSessionRequest, _kandev_agentctl_v1_SessionState, _kandev_agentctl_v1_GetSessionRequest__Output, _kandev_agentctl_v1_SessionState__Output>
  ListSessions: MethodDefinition<_kandev_agentctl_v1_ListSessionsRequest, _kandev_agentctl_v1_ListSessionsResponse, _kandev_agentctl_v1_ListSessionsRequest__Output, _kandev_agentctl_v1_ListSessionsResponse__Output>
  StopSession: MethodDefinition<_kandev_agentctl_v1_StopSessionRequest, _kandev_agentctl_v1_StopSessionResponse, _kandev_agentctl_v1_StopSessionRequest__Output, _kandev_agentctl_v1_StopSessionResponse__Output>
  UpdateProviders: MethodDefinition<_kandev_agentctl_v1_UpdateProvidersRequest, _kandev_agentctl_v1_UpdateProvidersResponse, _kandev_agentctl_v1_UpdateProvidersRequest__Output, _kandev_agentctl_v1_UpdateProvidersResponse__Output>
}
