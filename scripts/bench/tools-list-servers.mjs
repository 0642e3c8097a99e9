// The comparison servers of the tools-list benchmark, each run as its own child process so that, like
// agentctl, it never shares an event loop with the client being timed:
//   node tools-list-servers.mjs baseline '<launch config JSON>'  the SDK's high-level McpServer
//   node tools-list-servers.mjs floor                            a bare node:http JSON responder
// Prints one `{"event":"ready","port":N}` line on stdout, serves on 127.0.0.1 until SIGTERM.
import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Resolve through agentctl's own dependencies, so the baseline runs the very express, SDK and zod
// instances agentctl runs (and converts the same zod schema objects).
const fromAgentctl = createRequire(join(root, 'packages/agentctl/package.json'));

const MCP_PATH = '/mcp';
const FLOOR_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} });

/** The SDK README's stateful Streamable HTTP server: one McpServer per client connection. */
function baselineApp(config) {
  const express = fromAgentctl('express');
  const { McpServer } = fromAgentctl('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = fromAgentctl('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { isInitializeRequest } = fromAgentctl('@modelcontextprotocol/sdk/types.js');
  // The tool catalogue is @kandev/protocol's, as agentctl resolves it.
  const { selectTools, toolContextFromConfig } = fromAgentctl('@kandev/protocol');
  const tools = selectTools(toolContextFromConfig(config));

  function newServer() {
    const server = new McpServer({ name: 'bench-baseline', version: '0.0.0' });
    for (const tool of tools) {
      server.registerTool(
        tool.name,
        {
          description: tool.description,
          inputSchema: tool.input.shape,
          // agentctl lists this annotation too: keep the two responses the same size.
          annotations: { readOnlyHint: tool.readOnly },
        },
        () => ({ content: [{ type: 'text', text: 'not served by the benchmark' }] }),
      );
    }
    return server;
  }

  const transports = new Map();
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post(MCP_PATH, async (req, res) => {
    const id = req.header('mcp-session-id');
    let transport = id === undefined ? undefined : transports.get(id);
    if (transport === undefined) {
      if (id !== undefined || !isInitializeRequest(req.body)) {
        res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'no valid session' }, id: null });
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
      });
      transport.onclose = () => transports.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
  });
  const followUp = async (req, res) => {
    const transport = transports.get(req.header('mcp-session-id') ?? '');
    if (transport === undefined) {
      res.status(400).send('no valid session');
      return;
    }
    await transport.handleRequest(req, res);
  };
  app.get(MCP_PATH, followUp);
  app.delete(MCP_PATH, followUp);
  return { app, close: () => Promise.all([...transports.values()].map((transport) => transport.close())) };
}

/** Reads the request body (as any JSON-RPC server must) and answers a fixed small JSON body. */
function floorApp() {
  const app = (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(FLOOR_BODY) });
      res.end(FLOOR_BODY);
    });
  };
  return { app, close: async () => {} };
}

async function main() {
  const [role, configJson] = process.argv.slice(2);
  let served;
  if (role === 'baseline') served = baselineApp(JSON.parse(configJson));
  else if (role === 'floor') served = floorApp();
  else throw new Error(`unknown role ${role} (baseline | floor)`);

  const server = createServer(served.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.stdout.write(`${JSON.stringify({ event: 'ready', port: server.address().port })}\n`);

  const stop = async () => {
    await served.close();
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  // The benchmark owns this process: if it dies without signalling (its stdin pipe closes), exit too.
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
