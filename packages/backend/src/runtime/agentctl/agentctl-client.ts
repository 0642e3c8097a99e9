import * as grpc from '@grpc/grpc-js';
import {
  agentctlChannel,
  type AgentCtlClient,
  AppError,
  appErrorFromGrpc,
  controlTokenMetadata,
  isTlsFailure,
  type LaunchConfig,
  launchConfigToWire,
  loadAgentctlProto,
  type RuntimeSessionState,
  sessionStateFromWire,
  tlsFailureMessage,
  type TurnRecord,
  turnRecordFromWire,
  type WireCancelTurnResponseOutput,
  type WirePromptResponseOutput,
  type WireSessionStateOutput,
} from '@kandev/protocol';
import type { AgentctlEndpoint } from './executor';
import { ProviderUpdateStream } from './provider-update-stream';
import {
  type ProviderUpdate,
  type ProviderUpdateOutcome,
  type SentProviderUpdates,
  sendMessage,
} from './provider-updates';

export type { ProviderUpdate, ProviderUpdateOutcome, ProvidersHeld, SentProviderUpdates } from './provider-updates';

/** Sessions per ListSessions answer: far below gRPC's 4 MB message limit even with long system prompts. */
const LIST_PAGE_SIZE = 100;

type Invoke<Res> = (metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<Res>) => void;

/** agentctl took a prompt (or had already: `duplicate`, never delivered twice). */
export interface PromptAccepted {
  turn: TurnRecord;
  duplicate: boolean;
}

/** What CancelTurn did: `cancelled` false when no turn was running. */
export interface TurnCancellation {
  cancelled: boolean;
  promptId: string | null;
}

export function promptAcceptedFromWire(response: WirePromptResponseOutput): PromptAccepted {
  if (response.turn === null) throw new AppError('internal', 'agentctl Prompt: no turn record');
  return { turn: turnRecordFromWire(response.turn), duplicate: response.duplicate };
}

/** The AgentCtl calls the backend makes (small, so services can be tested with a fake). */
export interface AgentctlApi {
  createSession(config: LaunchConfig): Promise<RuntimeSessionState>;
  /**
   * Many sessions' provider updates in one StreamProviderUpdates call, at most
   * PROVIDER_UPDATES_PER_MESSAGE (provider-updates.ts): resolves once the call is on its stream; its
   * answer holds one result per update, in order.
   */
  sendProviderUpdates(updates: readonly ProviderUpdate[]): Promise<SentProviderUpdates>;
  /** An MCP-only session the agentctl lost, registered again from its stored config and token hash. */
  restoreSession(config: LaunchConfig, mcpTokenHash: string): Promise<RuntimeSessionState>;
  getSession(sessionId: string): Promise<RuntimeSessionState>;
  stopSession(sessionId: string): Promise<boolean>;
  listSessions(): Promise<RuntimeSessionState[]>;
  /** Idempotent per prompt id: a seen id returns its turn with duplicate = true. */
  prompt(sessionId: string, promptId: string, text: string): Promise<PromptAccepted>;
  cancelTurn(sessionId: string): Promise<TurnCancellation>;
}

/** Promisified AgentCtl client: bearer metadata and a deadline on every call, errors as AppError. */
export class AgentctlClient implements AgentctlApi {
  private readonly client: AgentCtlClient;
  private readonly providerUpdates: ProviderUpdateStream;

  constructor(
    readonly endpoint: AgentctlEndpoint,
    private readonly timeoutMs: number,
  ) {
    const AgentCtl = loadAgentctlProto().kandev.agentctl.v1.AgentCtl;
    const channel = agentctlChannel(endpoint.grpcAddress, endpoint.tls);
    this.client = new AgentCtl(endpoint.grpcAddress, channel.credentials, channel.options);
    this.providerUpdates = new ProviderUpdateStream({
      open: () => this.client.StreamProviderUpdates(controlTokenMetadata(endpoint.controlToken)),
      timeoutMs,
      failure: (error) => this.failure(error, 'StreamProviderUpdates'),
    });
  }

  async createSession(config: LaunchConfig): Promise<RuntimeSessionState> {
    const wire = launchConfigToWire(config);
    const state = await this.call<WireSessionStateOutput>('CreateSession', (md, opts, cb) =>
      this.client.CreateSession(wire, md, opts, cb),
    );
    return sessionStateFromWire(state);
  }

  sendProviderUpdates(updates: readonly ProviderUpdate[]): Promise<SentProviderUpdates> {
    return sendMessage((batch) => this.providerUpdates.send(batch), updates);
  }

  /** sendProviderUpdates, and its answer. */
  async updateProvidersBatch(updates: readonly ProviderUpdate[]): Promise<ProviderUpdateOutcome[]> {
    return (await this.sendProviderUpdates(updates)).answer;
  }

  async restoreSession(config: LaunchConfig, mcpTokenHash: string): Promise<RuntimeSessionState> {
    const request = { config: launchConfigToWire(config), mcp_token_sha256: mcpTokenHash };
    const state = await this.call<WireSessionStateOutput>('RestoreSession', (md, opts, cb) =>
      this.client.RestoreSession(request, md, opts, cb),
    );
    return sessionStateFromWire(state);
  }

  async getSession(sessionId: string): Promise<RuntimeSessionState> {
    const request = { session_id: sessionId };
    const state = await this.call<WireSessionStateOutput>('GetSession', (md, opts, cb) =>
      this.client.GetSession(request, md, opts, cb),
    );
    return sessionStateFromWire(state);
  }

  async stopSession(sessionId: string): Promise<boolean> {
    const request = { session_id: sessionId };
    const response = await this.call<{ stopped: boolean }>('StopSession', (md, opts, cb) =>
      this.client.StopSession(request, md, opts, cb),
    );
    return response.stopped;
  }

  /** Every session, a page per call: one answer with thousands would pass gRPC's message size limit. */
  async listSessions(): Promise<RuntimeSessionState[]> {
    const sessions: RuntimeSessionState[] = [];
    let after = '';
    for (;;) {
      const request = { page_size: LIST_PAGE_SIZE, after_session_id: after };
      const page = await this.call<{ sessions: WireSessionStateOutput[]; more: boolean }>(
        'ListSessions',
        (md, opts, cb) => this.client.ListSessions(request, md, opts, cb),
      );
      for (const wire of page.sessions) sessions.push(sessionStateFromWire(wire));
      const last = sessions[sessions.length - 1];
      // An agentctl that ignores paging (older) answers everything at once, without `more`.
      if (!page.more || page.sessions.length === 0 || last === undefined) return sessions;
      after = last.config.sessionId;
    }
  }

  async prompt(sessionId: string, promptId: string, text: string): Promise<PromptAccepted> {
    const request = { session_id: sessionId, prompt_id: promptId, text };
    const response = await this.call<WirePromptResponseOutput>('Prompt', (md, opts, cb) =>
      this.client.Prompt(request, md, opts, cb),
    );
    return promptAcceptedFromWire(response);
  }

  async cancelTurn(sessionId: string): Promise<TurnCancellation> {
    const request = { session_id: sessionId };
    const response = await this.call<WireCancelTurnResponseOutput>('CancelTurn', (md, opts, cb) =>
      this.client.CancelTurn(request, md, opts, cb),
    );
    return { cancelled: response.cancelled, promptId: response.prompt_id.length > 0 ? response.prompt_id : null };
  }

  close(): void {
    this.providerUpdates.close();
    this.client.close();
  }

  /** A refused TLS handshake says so (and where), instead of a bare UNAVAILABLE. */
  private failure(error: grpc.ServiceError, method: string): AppError {
    const { grpcAddress, tls } = this.endpoint;
    if (tls !== undefined && error.code === grpc.status.UNAVAILABLE && isTlsFailure(error.details)) {
      return new AppError('unavailable', `agentctl ${method}: ${tlsFailureMessage(grpcAddress, error.details)}`);
    }
    return appErrorFromGrpc(error, `agentctl ${method}`);
  }

  private call<Res>(method: string, invoke: Invoke<Res>): Promise<Res> {
    const metadata = controlTokenMetadata(this.endpoint.controlToken);
    return new Promise<Res>((resolve, reject) => {
      invoke(metadata, { deadline: Date.now() + this.timeoutMs }, (error, response) => {
        if (error !== null) reject(this.failure(error, method));
        else if (response === undefined) reject(new AppError('internal', `agentctl ${method}: empty response`));
        else resolve(response);
      });
    });
  }
}

export interface AgentctlConnector {
  clientFor(endpoint: AgentctlEndpoint): AgentctlApi;
}

/**
 * One channel per agentctl (by gRPC address): several executors can run agentctls at once. A new
 * token at a known address (a restarted agentctl) replaces its channel; close() drops one that went.
 */
export class AgentctlClients implements AgentctlConnector {
  private readonly clients = new Map<string, AgentctlClient>();

  constructor(private readonly timeoutMs: number) {}

  clientFor(endpoint: AgentctlEndpoint): AgentctlClient {
    let client = this.clients.get(endpoint.grpcAddress);
    const changed =
      client !== undefined &&
      (client.endpoint.controlToken !== endpoint.controlToken || client.endpoint.tls !== endpoint.tls);
    if (client !== undefined && changed) {
      client.close();
      client = undefined;
    }
    if (client === undefined) {
      client = new AgentctlClient(endpoint, this.timeoutMs);
      this.clients.set(endpoint.grpcAddress, client);
    }
    return client;
  }

  /** The agentctl at this address is gone. */
  close(endpoint: AgentctlEndpoint): void {
    const client = this.clients.get(endpoint.grpcAddress);
    if (client === undefined) return;
    client.close();
    this.clients.delete(endpoint.grpcAddress);
  }

  closeAll(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
