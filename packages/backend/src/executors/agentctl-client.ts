import * as grpc from '@grpc/grpc-js';
import {
  type AgentCtlClient,
  AppError,
  appErrorFromGrpc,
  controlTokenMetadata,
  type LaunchConfig,
  launchConfigToWire,
  loadAgentctlProto,
  type RuntimeSessionState,
  sessionStateFromWire,
  type WireSessionStateOutput,
} from '@kandev/protocol';
import type { AgentctlEndpoint } from './executor';

type Invoke<Res> = (metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<Res>) => void;

/** The AgentCtl calls the backend makes (small, so services can be tested with a fake). */
export interface AgentctlApi {
  createSession(config: LaunchConfig): Promise<RuntimeSessionState>;
  getSession(sessionId: string): Promise<RuntimeSessionState>;
  stopSession(sessionId: string): Promise<boolean>;
  listSessions(): Promise<RuntimeSessionState[]>;
}

/** Promisified AgentCtl client: bearer metadata and a deadline on every call, errors as AppError. */
export class AgentctlClient implements AgentctlApi {
  private readonly client: AgentCtlClient;

  constructor(
    readonly endpoint: AgentctlEndpoint,
    private readonly timeoutMs: number,
  ) {
    const AgentCtl = loadAgentctlProto().kandev.agentctl.v1.AgentCtl;
    this.client = new AgentCtl(endpoint.grpcAddress, grpc.credentials.createInsecure());
  }

  async createSession(config: LaunchConfig): Promise<RuntimeSessionState> {
    const wire = launchConfigToWire(config);
    const state = await this.call<WireSessionStateOutput>('CreateSession', (md, opts, cb) =>
      this.client.CreateSession(wire, md, opts, cb),
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

  async listSessions(): Promise<RuntimeSessionState[]> {
    const response = await this.call<{ sessions: WireSessionStateOutput[] }>('ListSessions', (md, opts, cb) =>
      this.client.ListSessions({}, md, opts, cb),
    );
    return response.sessions.map(sessionStateFromWire);
  }

  close(): void {
    this.client.close();
  }

  private call<Res>(method: string, invoke: Invoke<Res>): Promise<Res> {
    const metadata = controlTokenMetadata(this.endpoint.controlToken);
    return new Promise<Res>((resolve, reject) => {
      invoke(metadata, { deadline: Date.now() + this.timeoutMs }, (error, response) => {
        if (error !== null) reject(appErrorFromGrpc(error, `agentctl ${method}`));
        else if (response === undefined) reject(new AppError('internal', `agentctl ${method}: empty response`));
        else resolve(response);
      });
    });
  }
}

export interface AgentctlConnector {
  clientFor(endpoint: AgentctlEndpoint): AgentctlApi;
}

/** One channel to the current agentctl endpoint, replaced when the endpoint changes (agentctl restarted). */
export class AgentctlClients implements AgentctlConnector {
  private readonly clients = new Map<string, AgentctlClient>();

  constructor(private readonly timeoutMs: number) {}

  clientFor(endpoint: AgentctlEndpoint): AgentctlClient {
    const key = `${endpoint.grpcAddress}\n${endpoint.controlToken}`;
    let client = this.clients.get(key);
    if (client === undefined) {
      this.closeAll(); // one agentctl per executor: a new endpoint means the old one is gone
      client = new AgentctlClient(endpoint, this.timeoutMs);
      this.clients.set(key, client);
    }
    return client;
  }

  closeAll(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
