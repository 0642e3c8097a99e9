import { DIFF_TEXT_MAX, DIFFS_MAX, parseToolCall, TOOL_TEXT_MAX } from './tool-call-update';

const withText = { withText: true };

describe('parseToolCall', () => {
  test('title, status, kind, raw input as JSON', () => {
    expect(
      parseToolCall(
        {
          toolCallId: 'c1',
          title: 'get_task_kandev',
          kind: 'other',
          status: 'in_progress',
          rawInput: { name: 'get_task_kandev', arguments: {} },
        },
        withText,
      ),
    ).toEqual({
      kind: 'tool_call',
      toolCallId: 'c1',
      title: 'get_task_kandev',
      status: 'in_progress',
      toolKind: 'other',
      inputJson: '{"name":"get_task_kandev","arguments":{}}',
      outputText: undefined,
      outputAppend: undefined,
      diffs: undefined,
      mcpTool: undefined,
    });
  });

  test('text content is the output, joined; diffs are kept beside it', () => {
    const call = parseToolCall(
      {
        toolCallId: 'c1',
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: 'line 1' } },
          { type: 'diff', path: '/w/a.txt', oldText: 'old', newText: 'new' },
          { type: 'diff', path: '/w/b.txt', oldText: null, newText: 'created' },
          { type: 'terminal', terminalId: 't1' },
          { type: 'content', content: { type: 'text', text: 'line 2' } },
        ],
        rawOutput: 'ignored: text content wins',
      },
      withText,
    );
    expect(call).toMatchObject({
      outputText: 'line 1\nline 2',
      diffs: [
        { path: '/w/a.txt', oldText: 'old', newText: 'new', truncated: false },
        { path: '/w/b.txt', oldText: null, newText: 'created', truncated: false },
      ],
    });
  });

  test.each([
    ['a string raw output is the output', 'hello\n', 'hello\n'],
    ['an MCP result: its text', { content: [{ type: 'text', text: '5' }] }, '5'],
    ['an MCP result under result', { result: { content: [{ type: 'text', text: 'ok' }] }, error: null }, 'ok'],
    ['anything else as JSON', { exitCode: 0 }, '{"exitCode":0}'],
  ])('raw output without text content: %s', (_name, rawOutput, expected) => {
    expect(parseToolCall({ toolCallId: 'c1', rawOutput }, withText)?.outputText).toBe(expected);
  });

  test('streamed terminal output is an append', () => {
    const call = parseToolCall({ toolCallId: 'c1', _meta: { terminal_output_delta: { data: 'B\n' } } }, withText);
    expect(call).toMatchObject({ outputText: undefined, outputAppend: 'B\n' });
  });

  test("a permission request's content describes the call: not its output", () => {
    const call = parseToolCall(
      { toolCallId: 'c1', content: [{ type: 'content', content: { type: 'text', text: '{"a":1}' } }] },
      { withText: false },
    );
    expect(call?.outputText).toBeUndefined();
  });

  test('the MCP server and tool, from structured fields only', () => {
    expect(
      parseToolCall(
        {
          toolCallId: 'c1',
          _meta: { claudeCode: { toolName: 'mcp__kandev__get_task_kandev', mcpServer: { name: 'kandev' } } },
        },
        withText,
      )?.mcpTool,
    ).toEqual({ server: 'kandev', tool: 'get_task_kandev' });
    expect(
      parseToolCall(
        {
          toolCallId: 'c1',
          rawInput: { server: 'kandev', tool: 'get_task_kandev', arguments: {} },
          _meta: { is_mcp_tool_call: true },
        },
        withText,
      )?.mcpTool,
    ).toEqual({ server: 'kandev', tool: 'get_task_kandev' });
    // The same input shape without the agent saying it is an MCP call (a model could write it).
    expect(
      parseToolCall({ toolCallId: 'c1', rawInput: { server: 'kandev', tool: 'x' } }, withText)?.mcpTool,
    ).toBeUndefined();
    expect(
      parseToolCall({ toolCallId: 'c1', title: 'mcp__kandev__get_task_kandev', kind: 'other' }, withText)?.mcpTool,
    ).toBeUndefined();
  });

  test('long texts are cut and diffs bounded', () => {
    const long = 'x'.repeat(TOOL_TEXT_MAX + 10);
    const call = parseToolCall(
      {
        toolCallId: 'c1',
        content: [
          { type: 'content', content: { type: 'text', text: long } },
          ...Array.from({ length: DIFFS_MAX + 3 }, (_, i) => ({
            type: 'diff',
            path: `/w/${i}`,
            newText: 'y'.repeat(DIFF_TEXT_MAX + 1),
          })),
        ],
      },
      withText,
    );
    expect(call?.outputText?.endsWith('…[truncated]')).toBe(true);
    expect(call?.diffs).toHaveLength(DIFFS_MAX);
    expect(call?.diffs?.[0]).toMatchObject({ truncated: true, newText: 'y'.repeat(DIFF_TEXT_MAX) });
  });

  test('an unknown status or kind is left out, the call kept', () => {
    expect(parseToolCall({ toolCallId: 'c', status: 'exploded', kind: 7 }, withText)).toMatchObject({
      toolCallId: 'c',
      status: undefined,
      toolKind: undefined,
    });
  });

  test.each([[{ title: 'no id' }], ['garbage'], [null]])('unreadable: %p', (raw) => {
    expect(parseToolCall(raw, withText)).toBeNull();
  });
});
