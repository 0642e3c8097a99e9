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
} from './acp-connection';
import { describeError } from './agent-exit';
import { parseSessionUpdate } from './session-update';

const InitializeResultSchema = z.object({
  agentCapabilities: z
    .object({
      loadSession: z.boolean().optional(),
      mcpCapabilities: z.object({ http: z.boolean().optional() }).nullish(),
    })
    .nullish(),
});

const NewSessionResultSchema = z.object({ sessionId: z.string().min(1) });

const PromptResultSchema = z.object({ stopReason: z.string().min(1) });

function toSdkServers(servers: readonly McpServerSpec[]): McpServer[] {
  return servers.map((s) => ({ type: 'http', name: s.name, url: s.url, headers: s.headers.map((h) => ({ ...h })) }));
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
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      log.debug({ toolCallId: params.toolCall.toolCallId }, 'permission request received');
      const outcome = await events.onPermission(params.sessionId, {
        toolCallId: params.toolCall.toolCallId,
        title: params.toolCall.title ?? null,
        toolKind: params.toolCall.kind ?? null,
        options: params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
      });
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
      return {
        loadSession: result.agentCapabilities?.loadSession === true,
        mcpHttp: result.agentCapabilities?.mcpCapabilities?.http === true,
      };
    },
    newSession: ({ cwd, mcpServers, systemPrompt }) =>
      call(
        'session/new',
        () =>
          connection.agent.request(methods.agent.session.new, {
            cwd,
            mcpServers: toSdkServers(mcpServers),
            _meta: { systemPrompt },
          }),
        NewSessionResultSchema,
      ),
    async loadSession({ sessionId, cwd, mcpServers, systemPrompt }) {
      await call(
        'session/load',
        () =>
          connection.agent.request(methods.agent.session.load, {
            sessionId,
            cwd,
            mcpServers: toSdkServers(mcpServers),
            _meta: { systemPrompt },
          }),
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
