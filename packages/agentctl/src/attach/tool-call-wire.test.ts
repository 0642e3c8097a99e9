import type { WireToolCallResultOutput } from '@kandev/protocol';
import { toolResultFromWire } from './tool-call-wire';

const output = (text: string, structured_json = '', is_error = false): WireToolCallResultOutput => ({
  call_id: 'c',
  outcome: 'output',
  output: { text, structured_json, is_error },
});

describe('toolResultFromWire', () => {
  test.each<[string, WireToolCallResultOutput, unknown]>([
    ['text only', output('done'), { content: [{ type: 'text', text: 'done' }] }],
    [
      'structured JSON without text: the text repeats it for clients that ignore structuredContent',
      output('', '{"id":"t-1"}'),
      { content: [{ type: 'text', text: '{"id":"t-1"}' }], structuredContent: { id: 't-1' } },
    ],
    [
      'structured JSON that is not an object is dropped, the text stays',
      output('three', '[1,2,3]'),
      { content: [{ type: 'text', text: 'three' }] },
    ],
    ['malformed structured JSON is dropped', output('x', '{nope'), { content: [{ type: 'text', text: 'x' }] }],
    [
      'is_error output',
      output('task t-9 is done; pick another', '', true),
      { isError: true, content: [{ type: 'text', text: 'task t-9 is done; pick another' }] },
    ],
    [
      'an unknown error code is reported as internal',
      { call_id: 'c', outcome: 'error', error: { code: 'weird_code', message: 'nope' } },
      {
        isError: true,
        content: [{ type: 'text', text: 'get_task_kandev failed (internal): nope' }],
        structuredContent: { error: { code: 'internal', message: 'nope', tool: 'get_task_kandev' } },
      },
    ],
    [
      'no outcome at all',
      { call_id: 'c' },
      {
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/empty result; its outcome is unknown/) }],
        structuredContent: { error: { code: 'internal', reason: 'empty_result', tool: 'get_task_kandev' } },
      },
    ],
  ])('%s', (_name, wire, expected) => {
    expect(toolResultFromWire(wire, 'get_task_kandev')).toEqual(expected);
  });
});
