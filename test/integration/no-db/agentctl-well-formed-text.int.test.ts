// Lone UTF-16 surrogates at agentctl's boundaries, against the real daemon: an MCP tool call's
// arguments are refused with -32602 and a gRPC request holding one with INVALID_ARGUMENT; nothing is
// held or run for either.
import { status } from '@grpc/grpc-js';
import { launchConfigToWire, mcpPathFor, type WireSessionStateOutput } from '@kandev/protocol';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { agentctlClient, grpcFailureCode, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { namedLaunchConfig } from '../../helpers/launch-configs';
import { connectMcp } from '../../helpers/mcp';
import { startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { sessionUuid } from '../../helpers/session-ids';

const TOKEN = 'mcp-token-surrogates-0123456789abcdef0123456789';
const LONE = 'a\ud800b';

describe('agentctl refuses unpaired surrogates', () => {
  const cleanup = useCleanup();

  test('MCP tool arguments: -32602 naming the rule; gRPC: INVALID_ARGUMENT, no session held', async () => {
    const daemon = await startAgentctl(cleanup);
    const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
    const create = (name: string, systemPrompt: string) =>
      unary<object, WireSessionStateOutput>(
        grpc,
        grpc.CreateSession,
        launchConfigToWire(namedLaunchConfig(name, TOKEN, { systemPrompt })),
        TEST_CONTROL_TOKEN,
      );
    const getSession = (name: string) =>
      unary<object, WireSessionStateOutput>(
        grpc,
        grpc.GetSession,
        { session_id: sessionUuid(name) },
        TEST_CONTROL_TOKEN,
      );

    // gRPC: a short string is sent as the surrogate's own three bytes (protobufjs), which agentctl decodes.
    expect(await grpcFailureCode(create('bad', `prompt ${LONE}`))).toBe(status.INVALID_ARGUMENT);
    await expect(create('bad-2', LONE)).rejects.toMatchObject({
      details: expect.stringMatching(/well-formed Unicode/),
    });
    expect(await grpcFailureCode(getSession('bad'))).toBe(status.NOT_FOUND);
    // The same call with well-formed text (an astral character is a surrogate pair) is held.
    await create('good', 'prompt \u{1F600}');
    expect((await getSession('good')).config?.system_prompt).toBe('prompt \u{1F600}');

    // MCP: the SDK client sends the "\ud800" escape; JSON.parse on the server makes it a lone surrogate.
    const url = `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(sessionUuid('good'))}`;
    const mcp = await connectMcp(cleanup, url, TOKEN);
    const refused = mcp.client.callTool({ name: 'create_task_kandev', arguments: { title: LONE } });
    await expect(refused).rejects.toBeInstanceOf(McpError);
    await expect(refused).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/well-formed Unicode/),
    });
    // The barrier that the refusal changed nothing for the connection: a well-formed call still answers.
    const result = await mcp.client.callTool({ name: 'get_task_kandev', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/no backend is attached/i);
  });
});
