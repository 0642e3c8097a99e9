import type { ToolCall, ToolCallForwarder, ToolCallResult } from './tool-call-forwarder';

/** The answer while no backend channel is attached: every call fails cleanly and changes nothing. */
export class NoBackendForwarder implements ToolCallForwarder {
  forward(call: ToolCall): Promise<ToolCallResult> {
    return Promise.resolve({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            `No backend is attached to agentctl, so ${call.tool} was not performed and nothing changed. ` +
            'Continue without this tool, or retry later once the backend is connected.',
        },
      ],
      structuredContent: { error: { code: 'unavailable', reason: 'no_backend_attached', tool: call.tool } },
    });
  }
}
