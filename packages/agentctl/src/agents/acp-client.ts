// The only module that loads '@agentclientprotocol/sdk' (ESM, loaded through Node 20's require(esm)).
// It implements AcpConnection as an ACP *client* over the agent's stdio.
import { Readable, Writable } from 'node:stream';
import { client, type McpServer, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { Logger } from '../logger';
import {
  AcpConnectionClosedError,
  type AcpConnection,
  type AcpEvents,
  type AgentCapabilities,
  type McpServerSpec,
  type SessionModes,
  type SessionSetupParams,
} from './acp-connection';
import { describeError } from './agent-exit';
import { parseSessionUpdate } from './session-update';
import { parseToolCall } from './tool-call-update';

const InitializeResultSchema = z.object({
  agentCapabilities: z
    .object({
      loadSession: z.boolean().optional(),
      mcpCapabilities: z.object({ http: z.boolean().optional() }).nullish(),
      sessionCapabilities: z
        .object({
          systemPrompt: z.object({}).passthrough().nullish(),
          close: z.object({}).passthrough().nullish(),
          resume: z.object({}).passthrough().nullish(),
        })
        .nullish(),
      _meta: z.record(z.string(), z.unknown()).nullish(),
    })
    .nullish(),
});

const ModesSchema = z
  .object({
    currentModeId: z.string().nullish(),
    availableModes: z.array(z.object({ id: z.string().min(1), name: z.string().catch('') })),
  })
  .nullish()
  .catch(null);

const NewSessionResultSchema = z.object({ sessionId: z.string().min(1), modes: ModesSchema });
const SessionResultSchema = z.object({ modes: ModesSchema }).catch({ modes: null });

const PromptResultSchema = z.object({ stopReason: z.string().min(1) });

function toSdkServers(servers: readonly McpServerSpec[]): McpServer[] {
  return servers.map((s) => ({ type: 'http', name: s.name, url: s.url, headers: s.headers.map((h) => ({ ...h })) }));
}

function modesOf(modes: z.infer<typeof ModesSchema>): SessionModes | null {
  if (modes === null || modes === undefined) return null;
  return { currentModeId: modes.currentModeId ?? null, available: modes.availableModes };
}

/**
 * The setup fields of session/new, load and resume. The ACP `systemPrompt` is still marked unstable in
 * the SDK's types, so it is added to the request as data (the SDK sends the object as given).
 */
function setupRequest(params: SessionSetupParams): {
  cwd: string;
  mcpServers: McpServer[];
  _meta?: Record<string, unknown>;
} {
  const systemPrompt =
    params.systemPrompt === null
      ? {}
      : { systemPrompt: { mode: 'append', content: [{ type: 'text', text: params.systemPrompt }] } };
  const meta = Object.keys(params.meta).length === 0 ? {} : { _meta: { ...params.meta } };
  return { cwd: params.cwd, mcpServers: toSdkServers(params.mcpServers), ...meta, ...systemPrompt };
}

/**
 * The SDK handles each notification in its own async chain while a response settles its request
 * directly, so a turn's last session/update could be handled after the session/prompt answer that
 * followed it on the wire. Crossing one macrotask boundary lets every already-received notification
 * run first: a turn's output never lands after its end, and load replays never land in a turn.
 */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Connects to an agent over its stdio. agentctl advertises neither file system nor terminal
 * capabilities, so agents must not call those methods; if one does, the SDK answers method-not-found.
 * Permission requests go to the runner, which answers them by the profile's permission policy.
 */
export function connectAcpClient(
  stdio: { readonly stdin: Writable; readonly stdout: Readable },
  events: AcpEvents,
  log: Logger,
): AcpConnection {
  const app = client({ name: 'kandev-agentctl' })
    .onNotification(methods.client.session.update, ({ params }) => {
      const update = parseSessionUpdate(params.update);
      if (update !== null) events.onUpdate(params.sessionId, update);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params, signal }) => {
      log.debug({ toolCallId: params.toolCall.toolCallId }, 'permission request received');
      const toolCall = parseToolCall(params.toolCall, { withText: false }) ?? {
        kind: 'tool_call' as const,
        toolCallId: params.toolCall.toolCallId,
      };
      const request = {
        toolCallId: params.toolCall.toolCallId,
        title: params.toolCall.title ?? null,
        toolKind: params.toolCall.kind ?? null,
        options: params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
        toolCall,
      };
      // signal: the agent withdrew the request ($/cancel_request, e.g. its turn was cancelled).
      const outcome = await events.onPermission(params.sessionId, request, signal);
      return { outcome };
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(stdio.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(stdio.stdout) as ReadableStream<Uint8Array>,
    ),
  );

  async function call<T>(method: string, send: () => Promise<unknown>, schema: z.ZodType<T>): Promise<T> {
    let result: unknown;
    try {
      result = await send();
    } catch (err) {
      if (connection.signal.aborted) throw new AcpConnectionClosedError(method, { cause: err });
      throw new Error(`${method} failed: ${describeError(err)}`, { cause: err });
    }
    await settle();
    const parsed = schema.safeParse(result ?? {});
    if (!parsed.success) throw new Error(`${method}: the agent sent an unexpected answer`);
    return parsed.data;
  }

  return {
    async initialize(): Promise<AgentCapabilities> {
      const result = await call(
        'initialize',
        () =>
          connection.agent.request(methods.agent.initialize, {
            protocolVersion: PROTOCOL_VERSION,
            clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
            clientInfo: { name: 'kandev-agentctl', version: '0.1.0' },
          }),
        InitializeResultSchema,
      );
      const caps = result.agentCapabilities;
      const session = caps?.sessionCapabilities;
      return {
        loadSession: caps?.loadSession === true,
        mcpHttp: caps?.mcpCapabilities?.http === true,
        systemPrompt: session?.systemPrompt !== undefined && session.systemPrompt !== null,
        closeSession: session?.close !== undefined && session.close !== null,
        resumeSession: session?.resume !== undefined && session.resume !== null,
        extensions: Object.keys(caps?._meta ?? {}),
      };
    },
    async newSession(params) {
      const result = await call(
        'session/new',
        () => connection.agent.request(methods.agent.session.new, setupRequest(params)),
        NewSessionResultSchema,
      );
      return { sessionId: result.sessionId, modes: modesOf(result.modes) };
    },
    async loadSession(sessionId, params) {
      const result = await call(
        'session/load',
        () => connection.agent.request(methods.agent.session.load, { sessionId, ...setupRequest(params) }),
        SessionResultSchema,
      );
      return modesOf(result.modes);
    },
    async resumeSession(sessionId, params) {
      const result = await call(
        'session/resume',
        () => connection.agent.request(methods.agent.session.resume, { sessionId, ...setupRequest(params) }),
        SessionResultSchema,
      );
      return modesOf(result.modes);
    },
    async closeSession(sessionId) {
      await call(
        'session/close',
        () => connection.agent.request(methods.agent.session.close, { sessionId }),
        z.unknown(),
      );
    },
    async setMode(sessionId, modeId) {
      await call(
        'session/set_mode',
        () => connection.agent.request(methods.agent.session.setMode, { sessionId, modeId }),
        z.unknown(),
      );
    },
    prompt: (acpSessionId, text) =>
      call(
        'session/prompt',
        () =>
          connection.agent.request(methods.agent.session.prompt, {
            sessionId: acpSessionId,
            prompt: [{ type: 'text', text }],
          }),
        PromptResultSchema,
      ),
    async cancel(acpSessionId) {
      await connection.agent.notify(methods.agent.session.cancel, { sessionId: acpSessionId });
    },
    closed: connection.closed,
    close: () => connection.close(),
  };
}
