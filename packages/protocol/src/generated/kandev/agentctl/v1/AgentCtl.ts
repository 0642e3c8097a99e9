// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AgentctlMessage as _kandev_agentctl_v1_AgentctlMessage, AgentctlMessage__Output as _kandev_agentctl_v1_AgentctlMessage__Output } from '../../../kandev/agentctl/v1/AgentctlMessage';
import type { BackendMessage as _kandev_agentctl_v1_BackendMessage, BackendMessage__Output as _kandev_agentctl_v1_BackendMessage__Output } from '../../../kandev/agentctl/v1/BackendMessage';
import type { CancelTurnRequest as _kandev_agentctl_v1_CancelTurnRequest, CancelTurnRequest__Output as _kandev_agentctl_v1_CancelTurnRequest__Output } from '../../../kandev/agentctl/v1/CancelTurnRequest';
import type { CancelTurnResponse as _kandev_agentctl_v1_CancelTurnResponse, CancelTurnResponse__Output as _kandev_agentctl_v1_CancelTurnResponse__Output } from '../../../kandev/agentctl/v1/CancelTurnResponse';
import type { GetSessionRequest as _kandev_agentctl_v1_GetSessionRequest, GetSessionRequest__Output as _kandev_agentctl_v1_GetSessionRequest__Output } from '../../../kandev/agentctl/v1/GetSessionRequest';
import type { LaunchConfig as _kandev_agentctl_v1_LaunchConfig, LaunchConfig__Output as _kandev_agentctl_v1_LaunchConfig__Output } from '../../../kandev/agentctl/v1/LaunchConfig';
import type { ListSessionsRequest as _kandev_agentctl_v1_ListSessionsRequest, ListSessionsRequest__Output as _kandev_agentctl_v1_ListSessionsRequest__Output } from '../../../kandev/agentctl/v1/ListSessionsRequest';
import type { ListSessionsResponse as _kandev_agentctl_v1_ListSessionsResponse, ListSessionsResponse__Output as _kandev_agentctl_v1_ListSessionsResponse__Output } from '../../../kandev/agentctl/v1/ListSessionsResponse';
import type { PromptRequest as _kandev_agentctl_v1_PromptRequest, PromptRequest__Output as _kandev_agentctl_v1_PromptRequest__Output } from '../../../kandev/agentctl/v1/PromptRequest';
import type { PromptResponse as _kandev_agentctl_v1_PromptResponse, PromptResponse__Output as _kandev_agentctl_v1_PromptResponse__Output } from '../../../kandev/agentctl/v1/PromptResponse';
import type { ProviderUpdatesAnswer as _kandev_agentctl_v1_ProviderUpdatesAnswer, ProviderUpdatesAnswer__Output as _kandev_agentctl_v1_ProviderUpdatesAnswer__Output } from '../../../kandev/agentctl/v1/ProviderUpdatesAnswer';
import type { ProviderUpdatesCall as _kandev_agentctl_v1_ProviderUpdatesCall, ProviderUpdatesCall__Output as _kandev_agentctl_v1_ProviderUpdatesCall__Output } from '../../../kandev/agentctl/v1/ProviderUpdatesCall';
import type { RestoreSessionRequest as _kandev_agentctl_v1_RestoreSessionRequest, RestoreSessionRequest__Output as _kandev_agentctl_v1_RestoreSessionRequest__Output } from '../../../kandev/agentctl/v1/RestoreSessionRequest';
import type { SessionState as _kandev_agentctl_v1_SessionState, SessionState__Output as _kandev_agentctl_v1_SessionState__Output } from '../../../kandev/agentctl/v1/SessionState';
import type { StopSessionRequest as _kandev_agentctl_v1_StopSessionRequest, StopSessionRequest__Output as _kandev_agentctl_v1_StopSessionRequest__Output } from '../../../kandev/agentctl/v1/StopSessionRequest';
import type { StopSessionResponse as _kandev_agentctl_v1_StopSessionResponse, StopSessionResponse__Output as _kandev_agentctl_v1_StopSessionResponse__Output } from '../../../kandev/agentctl/v1/StopSessionResponse';

export interface AgentCtlClient extends grpc.Client {
  Attach(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage__Output>;
  Attach(options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage__Output>;
  attach(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage__Output>;
  attach(options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage__Output>;
  
  CancelTurn(argument: _kandev_agentctl_v1_CancelTurnRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_CancelTurnResponse__Output>): grpc.ClientUnaryCall;
  CancelTurn(argument: _kandev_agentctl_v1_CancelTurnRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_CancelTurnResponse__Output>): grpc.ClientUnaryCall;
  CancelTurn(argument: _kandev_agentctl_v1_CancelTurnRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_CancelTurnResponse__Output>): grpc.ClientUnaryCall;
  CancelTurn(argument: _kandev_agentctl_v1_CancelTurnRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_CancelTurnResponse__Output>): grpc.ClientUnaryCall;
  cancelTurn(argument: _kandev_agentctl_v1_CancelTurnRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_CancelTurnResponse__Output>): grpc.ClientUnaryCall;
  cancelTurn(argument: _kandev_agentctl_v1_CancelTurnRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_CancelTurnResponse__Output>): grpc.ClientUnaryCall;
  cancelTurn(argument: _kandev_agentctl_v1_CancelTurnRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_CancelTurnResponse__Output>): grpc.ClientUnaryCall;
  cancelTurn(argument: _kandev_agentctl_v1_CancelTurnRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_CancelTurnResponse__Output>): grpc.ClientUnaryCall;
  
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
  
  Prompt(argument: _kandev_agentctl_v1_PromptRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_PromptResponse__Output>): grpc.ClientUnaryCall;
  Prompt(argument: _kandev_agentctl_v1_PromptRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_PromptResponse__Output>): grpc.ClientUnaryCall;
  Prompt(argument: _kandev_agentctl_v1_PromptRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_PromptResponse__Output>): grpc.ClientUnaryCall;
  Prompt(argument: _kandev_agentctl_v1_PromptRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_PromptResponse__Output>): grpc.ClientUnaryCall;
  prompt(argument: _kandev_agentctl_v1_PromptRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_PromptResponse__Output>): grpc.ClientUnaryCall;
  prompt(argument: _kandev_agentctl_v1_PromptRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_PromptResponse__Output>): grpc.ClientUnaryCall;
  prompt(argument: _kandev_agentctl_v1_PromptRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_PromptResponse__Output>): grpc.ClientUnaryCall;
  prompt(argument: _kandev_agentctl_v1_PromptRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_PromptResponse__Output>): grpc.ClientUnaryCall;
  
  RestoreSession(argument: _kandev_agentctl_v1_RestoreSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  RestoreSession(argument: _kandev_agentctl_v1_RestoreSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  RestoreSession(argument: _kandev_agentctl_v1_RestoreSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  RestoreSession(argument: _kandev_agentctl_v1_RestoreSessionRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  restoreSession(argument: _kandev_agentctl_v1_RestoreSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  restoreSession(argument: _kandev_agentctl_v1_RestoreSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  restoreSession(argument: _kandev_agentctl_v1_RestoreSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  restoreSession(argument: _kandev_agentctl_v1_RestoreSessionRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_SessionState__Output>): grpc.ClientUnaryCall;
  
  StopSession(argument: _kandev_agentctl_v1_StopSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  StopSession(argument: _kandev_agentctl_v1_StopSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  StopSession(argument: _kandev_agentctl_v1_StopSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  StopSession(argument: _kandev_agentctl_v1_StopSessionRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  stopSession(argument: _kandev_agentctl_v1_StopSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  stopSession(argument: _kandev_agentctl_v1_StopSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  stopSession(argument: _kandev_agentctl_v1_StopSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  stopSession(argument: _kandev_agentctl_v1_StopSessionRequest, callback: grpc.requestCallback<_kandev_agentctl_v1_StopSessionResponse__Output>): grpc.ClientUnaryCall;
  
  StreamProviderUpdates(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_ProviderUpdatesCall, _kandev_agentctl_v1_ProviderUpdatesAnswer__Output>;
  StreamProviderUpdates(options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_ProviderUpdatesCall, _kandev_agentctl_v1_ProviderUpdatesAnswer__Output>;
  streamProviderUpdates(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_ProviderUpdatesCall, _kandev_agentctl_v1_ProviderUpdatesAnswer__Output>;
  streamProviderUpdates(options?: grpc.CallOptions): grpc.ClientDuplexStream<_kandev_agentctl_v1_ProviderUpdatesCall, _kandev_agentctl_v1_ProviderUpdatesAnswer__Output>;
  
}

export interface AgentCtlHandlers extends grpc.UntypedServiceImplementation {
  Attach: grpc.handleBidiStreamingCall<_kandev_agentctl_v1_BackendMessage__Output, _kandev_agentctl_v1_AgentctlMessage>;
  
  CancelTurn: grpc.handleUnaryCall<_kandev_agentctl_v1_CancelTurnRequest__Output, _kandev_agentctl_v1_CancelTurnResponse>;
  
  CreateSession: grpc.handleUnaryCall<_kandev_agentctl_v1_LaunchConfig__Output, _kandev_agentctl_v1_SessionState>;
  
  GetSession: grpc.handleUnaryCall<_kandev_agentctl_v1_GetSessionRequest__Output, _kandev_agentctl_v1_SessionState>;
  
  ListSessions: grpc.handleUnaryCall<_kandev_agentctl_v1_ListSessionsRequest__Output, _kandev_agentctl_v1_ListSessionsResponse>;
  
  Prompt: grpc.handleUnaryCall<_kandev_agentctl_v1_PromptRequest__Output, _kandev_agentctl_v1_PromptResponse>;
  
  RestoreSession: grpc.handleUnaryCall<_kandev_agentctl_v1_RestoreSessionRequest__Output, _kandev_agentctl_v1_SessionState>;
  
  StopSession: grpc.handleUnaryCall<_kandev_agentctl_v1_StopSessionRequest__Output, _kandev_agentctl_v1_StopSessionResponse>;
  
  StreamProviderUpdates: grpc.handleBidiStreamingCall<_kandev_agentctl_v1_ProviderUpdatesCall__Output, _kandev_agentctl_v1_ProviderUpdatesAnswer>;
  
}

export interface AgentCtlDefinition extends grpc.ServiceDefinition {
  Attach: MethodDefinition<_kandev_agentctl_v1_BackendMessage, _kandev_agentctl_v1_AgentctlMessage, _kandev_agentctl_v1_BackendMessage__Output, _kandev_agentctl_v1_AgentctlMessage__Output>
  CancelTurn: MethodDefinition<_kandev_agentctl_v1_CancelTurnRequest, _kandev_agentctl_v1_CancelTurnResponse, _kandev_agentctl_v1_CancelTurnRequest__Output, _kandev_agentctl_v1_CancelTurnResponse__Output>
  CreateSession: MethodDefinition<_kandev_agentctl_v1_LaunchConfig, _kandev_agentctl_v1_SessionState, _kandev_agentctl_v1_LaunchConfig__Output, _kandev_agentctl_v1_SessionState__Output>
  GetSession: MethodDefinition<_kandev_agentctl_v1_GetSessionRequest, _kandev_agentctl_v1_SessionState, _kandev_agentctl_v1_GetSessionRequest__Output, _kandev_agentctl_v1_SessionState__Output>
  ListSessions: MethodDefinition<_kandev_agentctl_v1_ListSessionsRequest, _kandev_agentctl_v1_ListSessionsResponse, _kandev_agentctl_v1_ListSessionsRequest__Output, _kandev_agentctl_v1_ListSessionsResponse__Output>
  Prompt: MethodDefinition<_kandev_agentctl_v1_PromptRequest, _kandev_agentctl_v1_PromptResponse, _kandev_agentctl_v1_PromptRequest__Output, _kandev_agentctl_v1_PromptResponse__Output>
  RestoreSession: MethodDefinition<_kandev_agentctl_v1_RestoreSessionRequest, _kandev_agentctl_v1_SessionState, _kandev_agentctl_v1_RestoreSessionRequest__Output, _kandev_agentctl_v1_SessionState__Output>
  StopSession: MethodDefinition<_kandev_agentctl_v1_StopSessionRequest, _kandev_agentctl_v1_StopSessionResponse, _kandev_agentctl_v1_StopSessionRequest__Output, _kandev_agentctl_v1_StopSessionResponse__Output>
  StreamProviderUpdates: MethodDefinition<_kandev_agentctl_v1_ProviderUpdatesCall, _kandev_agentctl_v1_ProviderUpdatesAnswer, _kandev_agentctl_v1_ProviderUpdatesCall__Output, _kandev_agentctl_v1_ProviderUpdatesAnswer__Output>
}
