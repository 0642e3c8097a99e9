import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logger';
import { callTool, type ToolBinding } from './call-tool';
import type { ToolCallForwarder } from './tool-call-forwarder';

export const MCP_SERVER_INFO = { name: 'kandev-agentctl', version: '0.1.0' } as const;

/**
 * One low-level MCP Server per client connection (an SDK server connects to one transport only).
 * tools/list answers the session's precomputed list from memory; tools/call checks the CURRENT list.
 */
export function createSessionMcpServer(binding: ToolBinding, forwarder: ToolCallForwarder, log: Logger): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    instructions: 'Kandev task tools for this session. The tool list can change while you work; re-list on notice.',
  });
  server.setRequestHandler(ListToolsRequestSchema, () => binding.toolSet.listResult);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(binding, forwarder, log, request.params, extra.signal),
  );
  return server;
}
