// The ACP agent: session bookkeeping around runTurn. One process serves one client over stdio.
import {
  agent,
  type AgentApp,
  type ContentBlock,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk/unstable';
import { resolve } from 'node:path';
import { EarlyCancels, incomingSessionMessage } from './early-cancels';
import { waitForFile } from './file-wait';
import type { Log } from './log';
import { connectMcpLink, firstHttpServer, type McpLink } from './mcp-link';
import { AGENT_MODES, type AgentMode, type AgentOptions, type Script, selectTurn } from './script';
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
  /** The ACP systemPrompt (append) it was given; only a {{system_prompt}} placeholder shows it. */
  systemPrompt: string | undefined;
  /** `default` asks the client before a request_permission step's action; `auto` does not. */
  mode: AgentMode;
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

  const options = deps.script.agent;

  async function openSession(id: string, params: SessionSetup): Promise<SessionState> {
    await sessions.get(id)?.mcp?.close();
    const server = options.mcp === 'ignore' ? undefined : firstHttpServer(params.mcpServers ?? []);
    const systemPrompt = systemPromptOf(params.systemPrompt);
    let mcp: McpLink | undefined;
    if (server !== undefined) {
      try {
        mcp = await connectMcpLink(server, AGENT_VERSION, options.list_changed, deps.log);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw RequestError.internalError({ mcpServer: server.name }, `cannot connect to MCP server: ${reason}`);
      }
    }
    const state: SessionState = {
      id,
      cwd: params.cwd,
      mcp,
      prompts: 0,
      toolCalls: 0,
      systemPrompt,
      mode: options.initial_mode,
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
        sessionCapabilities: { close: {}, resume: {}, ...(options.system_prompt ? { systemPrompt: {} } : {}) },
      },
      agentInfo: { name: 'kandev-test-agent', version: AGENT_VERSION },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, async ({ params }) => {
      created += 1;
      const state = await openSession(`test-session-${created}`, checkedSetup(params, options));
      return { sessionId: state.id, modes: modesOf(state) };
    })
    // Honest load: no history to replay; reconnect to the MCP server given and count prompts from 0.
    .onRequest(methods.agent.session.load, async ({ params }) => ({
      modes: modesOf(await openSession(params.sessionId, checkedSetup(params, options))),
    }))
    // Resume: as load (nothing to replay either way).
    .onRequest(methods.agent.session.resume, async ({ params }) => ({
      modes: modesOf(await openSession(params.sessionId, checkedSetup(params, options))),
    }))
    .onRequest(methods.agent.session.close, async ({ params }) => {
      const state = sessions.get(params.sessionId);
      if (state === undefined) throw RequestError.resourceNotFound(params.sessionId);
      sessions.delete(params.sessionId);
      await state.mcp?.close();
      deps.log('session closed', { sessionId: params.sessionId });
      return {};
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      const state = sessions.get(params.sessionId);
      if (state === undefined) throw RequestError.resourceNotFound(params.sessionId);
      const mode = AGENT_MODES.find((m) => m === params.modeId);
      if (mode === undefined) throw RequestError.invalidParams({}, `Mode ${params.modeId} is not available`);
      state.mode = mode;
      deps.log('mode set', { sessionId: state.id, mode });
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
          { prompt: text, ordinal, systemPrompt: state.systemPrompt ?? '', mode: state.mode, memory: state.memory },
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
            knownTools: () => state.mcp?.knownTools() ?? [],
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

/** What session/new, load and resume carry that the agent uses. */
interface SessionSetup {
  cwd: string;
  mcpServers?: readonly McpServer[] | null;
  systemPrompt?: unknown;
}

const MODE_NAMES: Record<AgentMode, string> = { default: 'Ask before acting', auto: 'Act without asking' };

function modesOf(state: SessionState) {
  return { currentModeId: state.mode, availableModes: AGENT_MODES.map((id) => ({ id, name: MODE_NAMES[id] })) };
}

/**
 * The ACP systemPrompt is taken in append mode only, and only when advertised (a client that sends it
 * anyway, or in another mode, is refused, as the spec asks of agents that cannot apply it).
 */
function checkedSetup(params: SessionSetup, options: AgentOptions): SessionSetup {
  if (params.systemPrompt === undefined || params.systemPrompt === null) return params;
  if (!options.system_prompt) throw RequestError.invalidParams({}, 'this agent takes no systemPrompt');
  if (systemPromptOf(params.systemPrompt) === undefined) {
    throw RequestError.invalidParams({}, 'systemPrompt requires append mode and text content');
  }
  return params;
}

function systemPromptOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const prompt = value as { mode?: unknown; content?: unknown };
  if (prompt.mode !== 'append' || !Array.isArray(prompt.content)) return undefined;
  const texts = prompt.content.flatMap((block: unknown) =>
    typeof block === 'object' && block !== null && 'text' in block && typeof block.text === 'string'
      ? [block.text]
      : [],
  );
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}
