import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logger';
import type { AgentctlMetrics } from '../metrics/agentctl-metrics';
import { callTool, type ToolBinding } from './call-tool';
import { CheckedCallToolRequestSchema } from './call-tool-request';
import type { ToolCallForwarder } from './tool-call-forwarder';

export const MCP_SERVER_INFO = { name: 'kandev-agentctl', version: '0.1.0' } as const;

/**
 * One JSON Schema validator for every connection: by default each SDK Server builds its own Ajv
 * instance, the largest part of what a connection costs in memory and CPU.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Who learns that a connection listed the tools (the session: its agent's tools are then current). */
export interface ListingRecorder {
  recordListing(connectionId: string): void;
}

/**
 * Relays the backend's progress on a call as `notifications/progress`, only when the agent asked for it
 * (a progressToken in the request's _meta). `progress` increases with every message, as MCP requires.
 */
export function progressRelay(extra: Extra, log: Logger): ((message: string) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  return (message) => {
    progress += 1;
    extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } })
      .catch((err: unknown) => log.debug({ err }, 'progress notification not delivered'));
  };
}

/**
 * One low-level MCP Server per client connection (an SDK server connects to one transport only).
 * tools/list answers the session's precomputed list from memory; tools/call checks the CURRENT list.
 */
export function createSessionMcpServer(
  binding: ToolBinding & ListingRecorder,
  forwarder: ToolCallForwarder,
  log: Logger,
  metrics?: Pick<AgentctlMetrics, 'toolsList'>,
): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    jsonSchemaValidator: SHARED_VALIDATOR,
    instructions: 'Kandev task tools for this session. The tool list can change while you work; re-list on notice.',
  });
  const list = () => binding.toolSet.listResult;
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
    if (extra.sessionId !== undefined) binding.recordListing(extra.sessionId);
    return metrics?.toolsList(list) ?? list();
  });
  server.setRequestHandler(CheckedCallToolRequestSchema, (request, extra) =>
    callTool(binding, forwarder, log, request.params, { signal: extra.signal, onProgress: progressRelay(extra, log) }),
  );
  return server;
}
