// The ACP agent: session bookkeeping around runTurn. One process serves one client over stdio.
import {
  agent,
  type AgentApp,
  type ContentBlock,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk';
import { resolve } from 'node:path';
import { EarlyCancels, incomingSessionMessage } from './early-cancels';
import { waitForFile } from './file-wait';
import type { Log } from './log';
import { connectMcpLink, firstHttpServer, type McpLink } from './mcp-link';
import { type Script, selectTurn } from './script';
import { createSessionMemory, runTurn, type SessionMemory, TurnFailure } from './turn-runner';

const NO_MCP_SERVER = 'no HTTP MCP server was given in session/new';

export const AGENT_VERSION = '0.1.0';

interface ActiveTurn {
  cancelled: boolean;
  cancel: () => void;
  promise: Promise<void>;
}

interface SessionState {
  id: string;
  /** The ACP session's working directory: relative `wait_for_file` paths resolve against it. */
  cwd: string;
  mcp: McpLink | undefined;
  /** Prompts seen in this session (the next prompt's 0-based ordinal). */
  prompts: number;
  toolCalls: number;
  /** A system prompt from `_meta.systemPrompt`; only a {{system_prompt}} placeholder shows it. */
  systemPrompt: string | undefined;
  /** Captured variables and the latest tool result, kept across this session's turns. */
  memory: SessionMemory;
  turn: ActiveTurn | undefined;
}

export interface ScriptedAgentDeps {
  script: Script;
  log: Log;
  exit: (code: number) => never;
}

export interface ScriptedAgent {
  app: AgentApp;
  /** Sees every incoming message as it is read, before dispatch (see early-cancels.ts). */
  observeIncoming: (message: unknown) => void;
  closeAll: () => Promise<void>;
}

export function createScriptedAgent(deps: ScriptedAgentDeps): ScriptedAgent {
  const sessions = new Map<string, SessionState>();
  const earlyCancels = new EarlyCancels();
  let created = 0;

  async function openSession(
    id: string,
    cwd: string,
    servers: readonly McpServer[],
    meta: unknown,
  ): Promise<SessionState> {
    await sessions.get(id)?.mcp?.close();
    const server = firstHttpServer(servers);
    let mcp: McpLink | undefined;
    if (server !== undefined) {
      try {
        mcp = await connectMcpLink(server, AGENT_VERSION);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw RequestError.internalError({ mcpServer: server.name }, `cannot connect to MCP server: ${reason}`);
      }
    }
    const systemPrompt = systemPromptOf(meta);
    const state: SessionState = {
      id,
      cwd,
      mcp,
      prompts: 0,
      toolCalls: 0,
      systemPrompt,
      memory: createSessionMemory(),
      turn: undefined,
    };
    sessions.set(id, state);
    deps.log('session opened', { sessionId: id, mcp: server?.name ?? null, systemPromptChars: systemPrompt?.length });
    return state;
  }

  const app = agent({ name: 'kandev-test-agent' })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        mcpCapabilities: { http: true, sse: false },
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
      },
      agentInfo: { name: 'kandev-test-agent', version: AGENT_VERSION },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, async ({ params }) => {
      created += 1;
      const state = await openSession(`test-session-${created}`, params.cwd, params.mcpServers, params._meta);
      return { sessionId: state.id };
    })
    // Honest load: no history to replay; reconnect to the MCP server given and count prompts from 0.
    .onRequest(methods.agent.session.load, async ({ params }) => {
      await openSession(params.sessionId, params.cwd, params.mcpServers, params._meta);
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      const cancelledEarly = earlyCancels.promptHandled(params.sessionId);
      const state = sessions.get(params.sessionId);
      if (state === undefined) throw RequestError.resourceNotFound(params.sessionId);
      if (state.turn !== undefined) throw RequestError.invalidRequest({}, 'a prompt turn is already running');
      const ordinal = state.prompts++;
      const text = promptText(params.prompt);
      const turnBody = selectTurn(deps.script, text, ordinal);
      const turn = createActiveTurn();
      state.turn = turn;
      // Its cancel overtook it: the turn ends cancelled before its first step.
      if (cancelledEarly) turn.cancel();
      deps.log('prompt', { sessionId: state.id, ordinal, steps: turnBody.steps.length, cancelledEarly });
      try {
        const stopReason = await runTurn(
          turnBody,
          { prompt: text, ordinal, systemPrompt: state.systemPrompt ?? '', memory: state.memory },
          {
            update: (update) => client.notify(methods.client.session.update, { sessionId: state.id, update }),
            callTool: (name, args) => {
              if (state.mcp === undefined) throw new Error(NO_MCP_SERVER);
              return state.mcp.callTool(name, args);
            },
            listTools: () => {
              if (state.mcp === undefined) throw new Error(NO_MCP_SERVER);
              return state.mcp.listTools();
            },
            waitForFile: (path, signal) => waitForFile(resolve(state.cwd, path), signal),
            cancelled: turn.promise,
            isCancelled: () => turn.cancelled,
            exit: deps.exit,
            nextToolCallId: () => `${state.id}-call-${++state.toolCalls}`,
            requestPermission: async (request) => {
              const { outcome } = await client.request(methods.client.session.requestPermission, {
                ...request,
                sessionId: state.id,
              });
              deps.log('permission outcome', { sessionId: state.id, outcome });
              return outcome.outcome === 'selected' ? outcome.optionId : 'cancelled';
            },
          },
        );
        deps.log('turn ended', { sessionId: state.id, ordinal, stopReason });
        return { stopReason };
      } catch (err) {
        if (!(err instanceof TurnFailure)) throw err;
        // The client sees why (session/prompt fails with this message) and the reason is logged.
        deps.log('turn failed', { sessionId: state.id, ordinal, error: err.message });
        throw RequestError.internalError({ ordinal }, err.message);
      } finally {
        state.turn = undefined;
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      const turn = sessions.get(params.sessionId)?.turn;
      const verdict = earlyCancels.cancelHandled(params.sessionId, turn !== undefined);
      if (verdict === 'cancel_running') turn?.cancel();
      else deps.log('cancel', { sessionId: params.sessionId, verdict });
    });

  const observeIncoming = (message: unknown) => {
    const incoming = incomingSessionMessage(message);
    if (incoming?.method === methods.agent.session.prompt) earlyCancels.promptArrived(incoming.sessionId);
    if (incoming?.method === methods.agent.session.cancel) earlyCancels.cancelArrived(incoming.sessionId);
  };
  const closeAll = async () => {
    await Promise.allSettled([...sessions.values()].map((s) => s.mcp?.close() ?? Promise.resolve()));
  };
  return { app, observeIncoming, closeAll };
}

function createActiveTurn(): ActiveTurn {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  const turn: ActiveTurn = {
    cancelled: false,
    promise,
    cancel: () => {
      turn.cancelled = true;
      resolve();
    },
  };
  return turn;
}

function promptText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

function systemPromptOf(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const value = (meta as { systemPrompt?: unknown }).systemPrompt;
  return typeof value === 'string' ? value : undefined;
}
