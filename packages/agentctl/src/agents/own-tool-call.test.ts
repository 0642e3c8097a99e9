import fc from 'fast-check';
import { isOwnToolCall } from './own-tool-call';

const NAMES = ['get_task_kandev', 'list_tasks_kandev'];

describe('isOwnToolCall', () => {
  test.each([
    ['the session server and a listed tool', { server: 'kandev', tool: 'get_task_kandev' }, true],
    ['another server', { server: 'github', tool: 'get_task_kandev' }, false],
    ['a tool the session does not list', { server: 'kandev', tool: 'update_task_mr_automation_kandev' }, false],
    ['no structured tool', undefined, false],
  ])('%s', (_name, mcpTool, expected) => {
    expect(isOwnToolCall({ mcpTool }, undefined, 'kandev', NAMES)).toBe(expected);
  });

  test('what the turn knows of the call counts when the request names nothing', () => {
    expect(
      isOwnToolCall(
        {},
        { title: 't', toolKind: 'execute', mcpTool: { server: 'kandev', tool: 'list_tasks_kandev' } },
        'kandev',
        NAMES,
      ),
    ).toBe(true);
  });

  test('without the session server (a profile without MCP) nothing is own', () => {
    expect(isOwnToolCall({ mcpTool: { server: 'kandev', tool: 'get_task_kandev' } }, undefined, null, NAMES)).toBe(
      false,
    );
  });

  test('a title alone never makes a call own, whatever it says', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (title, toolKind) => {
        expect(isOwnToolCall({}, { title, toolKind, mcpTool: undefined }, 'kandev', NAMES)).toBe(false);
      }),
    );
  });
});
