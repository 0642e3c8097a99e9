// The agent's MCP side: the official SDK client over Streamable HTTP, as a real agent would connect.
import type { McpServer } from '@agentclientprotocol/sdk/unstable';
import type { Log } from './log';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export interface ToolOutcome {
  isError: boolean;
  /** The text items of the result, joined by newlines. */
  text: string;
  raw: unknown;
}

export interface McpLink {
  readonly serverName: string;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** Every tool name from tools/list (all pages), in the server's order. */
  listTools(): Promise<string[]>;
  /** The names from the latest listing. */
  knownTools(): readonly string[];
  close(): Promise<void>;
}

export type HttpMcpServer = Extract<McpServer, { type: 'http' }>;

/** The first HTTP server of session/new or session/load, or undefined when there is none. */
export function firstHttpServer(servers: readonly McpServer[]): HttpMcpServer | undefined {
  return servers.find((s): s is HttpMcpServer => 'type' in s && s.type === 'http');
}

/**
 * Connects and lists the tools once, as agents do to learn what they can call. `onListChanged`: relist
 * on tools/list_changed (what Claude Code and Gemini CLI do), or ignore it (what Codex does).
 */
export async function connectMcpLink(
  server: HttpMcpServer,
  version: string,
  onListChanged: 'relist' | 'ignore',
  log: Log,
): Promise<McpLink> {
  const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
  const client = new Client({ name: 'kandev-test-agent', version });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
  await client.connect(transport);
  let known: readonly string[] = [];
  const link: McpLink = {
    serverName: server.name,
    async callTool(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
      const text = content
        .filter((c): c is { type: 'text'; text: string } => isTextContent(c))
        .map((c) => c.text)
        .join('\n');
      return { isError: result.isError === true, text, raw: result };
    },
    async listTools() {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      known = names;
      return names;
    },
    knownTools: () => known,
    close: () => client.close(),
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    if (onListChanged === 'ignore') return;
    const names = await link.listTools().catch(() => undefined);
    log('tools re-listed', { count: names?.length ?? null });
  });
  await link.listTools();
  return link;
}

function isTextContent(value: unknown): value is { type: 'text'; text: string } {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as { type?: unknown; text?: unknown };
  return item.type === 'text' && typeof item.text === 'string';
}
