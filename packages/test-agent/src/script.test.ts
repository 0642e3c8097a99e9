import { FALLBACK_TURN, parseScript, type Script, ScriptError, selectTurn } from './script';

const SCRIPT: Script = parseScript(
  JSON.stringify({
    turns: [
      { match: { contains: 'finish' }, steps: [{ reply: 'by text' }] },
      { match: { index: 1 }, steps: [{ reply: 'by index 1' }], stop_reason: 'refusal' },
      { steps: [{ reply: 'position 2' }] },
    ],
    default: { steps: [{ reply: 'default' }] },
  }),
);

const replyOf = (script: Script, text: string, ordinal: number) => selectTurn(script, text, ordinal).steps[0];

describe('parseScript', () => {
  test('turns every step form into a tagged step, with defaults', () => {
    const script = parseScript(
      JSON.stringify({
        turns: [
          {
            steps: [
              { call_tool: { name: 'get_task_kandev' } },
              { call_tool: { name: 'step_complete_kandev', arguments: { summary: 's' } } },
              { list_tools: true },
              { reply: 'hi #{{ordinal}}: {{prompt}}' },
              { wait_for_cancel: true },
              { wait_for_file: 'release-{{ordinal}}' },
              { exit: { code: 3 } },
            ],
          },
        ],
      }),
    );
    expect(script.turns[0]).toEqual({
      steps: [
        { kind: 'call_tool', name: 'get_task_kandev', arguments: {} },
        { kind: 'call_tool', name: 'step_complete_kandev', arguments: { summary: 's' } },
        { kind: 'list_tools' },
        { kind: 'reply', text: 'hi #{{ordinal}}: {{prompt}}' },
        { kind: 'wait_for_cancel' },
        { kind: 'wait_for_file', path: 'release-{{ordinal}}' },
        { kind: 'exit', code: 3 },
      ],
      stop_reason: 'end_turn',
    });
    expect(script.default).toBeUndefined();
  });

  test.each([
    ['not JSON', '{turns', /^not valid JSON/],
    ['no turns', '{}', /^turns: /],
    ['unknown top-level key', '{"turns":[],"extra":1}', /\(root\): Unrecognized key: "extra"/],
    [
      'step with no kind',
      '{"turns":[{"steps":[{}]}]}',
      /turns\.0\.steps\.0: a step needs exactly one of .*\(found none\)/,
    ],
    [
      'step with two kinds',
      '{"turns":[{"steps":[{"reply":"a","exit":{"code":1}}]}]}',
      /turns\.0\.steps\.0: .*\(found reply, exit\)/,
    ],
    ['reply not a string', '{"turns":[{"steps":[{"reply":1}]}]}', /turns\.0\.steps\.0\.reply: /],
    [
      'unknown placeholder in a reply',
      '{"turns":[{"steps":[{"reply":"{{promt}}"}]}]}',
      /turns\.0\.steps\.0\.reply: unknown placeholder \{\{promt\}\} \(known: \{\{prompt\}\}, \{\{ordinal\}\}, \{\{system_prompt\}\}, \{\{mode\}\}, \{\{cwd\}\}, \{\{git_branch\}\}, \{\{var:<name>\}\}\)/,
    ],
    ['empty wait_for_file path', '{"turns":[{"steps":[{"wait_for_file":""}]}]}', /turns\.0\.steps\.0\.wait_for_file: /],
    [
      'unknown placeholder in a wait_for_file path',
      '{"turns":[{"steps":[{"wait_for_file":"{{x}}"}]}]}',
      /turns\.0\.steps\.0\.wait_for_file: unknown placeholder \{\{x\}\}/,
    ],
    ['list_tools not true', '{"turns":[{"steps":[{"list_tools":false}]}]}', /turns\.0\.steps\.0\.list_tools: /],
    ['unknown stop reason', '{"turns":[{"steps":[],"stop_reason":"cancelled"}]}', /turns\.0\.stop_reason: /],
    ['empty match', '{"turns":[{"match":{},"steps":[]}]}', /turns\.0\.match: match needs index or contains/],
    ['exit code out of range', '{"turns":[{"steps":[{"exit":{"code":256}}]}]}', /turns\.0\.steps\.0\.exit\.code: /],
    [
      'unknown placeholder in a call_tool argument (nested)',
      '{"turns":[{"steps":[{"call_tool":{"name":"t","arguments":{"a":{"b":["{{qid}}"]}}}}]}]}',
      /turns\.0\.steps\.0\.call_tool\.arguments: unknown placeholder \{\{qid\}\} \(known: .*\{\{var:<name>\}\}\)/,
    ],
    [
      'a malformed variable name',
      '{"turns":[{"steps":[{"reply":"{{var:1x}}"}]}]}',
      /turns\.0\.steps\.0\.reply: unknown placeholder \{\{var:1x\}\}/,
    ],
    [
      'a capture pattern that does not compile',
      '{"turns":[{"steps":[{"capture":{"name":"q","pattern":"(x"}}]}]}',
      /turns\.0\.steps\.0\.capture\.pattern: not a valid JS regular expression: /,
    ],
    [
      'a capture pattern without a group',
      '{"turns":[{"steps":[{"capture":{"name":"q","pattern":"x(?:y)"}}]}]}',
      /turns\.0\.steps\.0\.capture\.pattern: needs a capturing group/,
    ],
    [
      'a bad capture name',
      '{"turns":[{"steps":[{"capture":{"name":"a b","pattern":"(x)"}}]}]}',
      /turns\.0\.steps\.0\.capture\.name: a variable name is/,
    ],
    [
      'a stateful capture flag',
      '{"turns":[{"steps":[{"capture":{"name":"q","pattern":"(x)","flags":"g"}}]}]}',
      /turns\.0\.steps\.0\.capture\.flags: capture flags may only be i, m, s and u/,
    ],
    [
      'an unknown capture source',
      '{"turns":[{"steps":[{"capture":{"name":"q","pattern":"(x)","from":"reply"}}]}]}',
      /turns\.0\.steps\.0\.capture\.from: /,
    ],
    [
      'an unknown capture key',
      '{"turns":[{"steps":[{"capture":{"name":"q","pattern":"(x)","group":2}}]}]}',
      /turns\.0\.steps\.0\.capture: Unrecognized key: "group"/,
    ],
  ])('%s is a ScriptError naming the problem', (_name, text, message) => {
    expect(() => parseScript(text)).toThrow(ScriptError);
    expect(() => parseScript(text)).toThrow(message);
  });
});

describe('parseScript: capture and variables', () => {
  test('capture defaults to the prompt and no flags; {{var:..}} is accepted in replies, paths and arguments', () => {
    const script = parseScript(
      JSON.stringify({
        turns: [
          {
            steps: [
              { capture: { name: 'qid', pattern: 'question_id["\': ]+([\\w-]+)' } },
              { capture: { name: 'answer', pattern: '-> (.+)$', flags: 'm', from: 'last_tool_result' } },
              { reply: '{{ var:qid }} {{system_prompt}}' },
              { wait_for_file: 'release-{{var:qid}}' },
              { call_tool: { name: 'message_task_kandev', arguments: { reply_to_question_id: '{{var:qid}}', n: 1 } } },
            ],
          },
        ],
      }),
    );
    expect(script.turns[0]?.steps).toEqual([
      { kind: 'capture', name: 'qid', pattern: 'question_id["\': ]+([\\w-]+)', flags: '', from: 'prompt' },
      { kind: 'capture', name: 'answer', pattern: '-> (.+)$', flags: 'm', from: 'last_tool_result' },
      { kind: 'reply', text: '{{ var:qid }} {{system_prompt}}' },
      { kind: 'wait_for_file', path: 'release-{{var:qid}}' },
      {
        kind: 'call_tool',
        name: 'message_task_kandev',
        arguments: { reply_to_question_id: '{{var:qid}}', n: 1 },
      },
    ]);
  });
});

describe('selectTurn', () => {
  test.each([
    ['a substring wins over the ordinal', 'please finish now', 1, { kind: 'reply', text: 'by text' }],
    ['match.index', 'anything', 1, { kind: 'reply', text: 'by index 1' }],
    ['a turn without match answers its position', 'anything', 2, { kind: 'reply', text: 'position 2' }],
    ['default when nothing matches', 'anything', 0, { kind: 'reply', text: 'default' }],
  ])('%s', (_name, text, ordinal, step) => {
    expect(replyOf(SCRIPT, text, ordinal)).toEqual(step);
  });

  test('the stop reason comes with the turn', () => {
    expect(selectTurn(SCRIPT, 'x', 1).stop_reason).toBe('refusal');
  });

  test('without a default, an unmatched prompt gets the fallback reply', () => {
    expect(selectTurn(parseScript('{"turns":[]}'), 'x', 0)).toEqual(FALLBACK_TURN);
  });

  test('the first turn whose substring occurs wins', () => {
    const script = parseScript(
      JSON.stringify({
        turns: [
          { match: { contains: 'b' }, steps: [{ reply: 'first' }] },
          { match: { contains: 'a' }, steps: [{ reply: 'second' }] },
        ],
      }),
    );
    expect(replyOf(script, 'ab', 5)).toEqual({ kind: 'reply', text: 'first' });
  });
});

describe('agent options', () => {
  test('defaults: takes a system prompt, relists on list_changed, starts in default, connects to MCP', () => {
    expect(parseScript('{"turns":[]}').agent).toEqual({
      system_prompt: true,
      list_changed: 'relist',
      initial_mode: 'default',
      mcp: 'connect',
    });
  });

  test('each can be set; an unknown one or value is a ScriptError', () => {
    const agent = { system_prompt: false, list_changed: 'ignore', initial_mode: 'auto', mcp: 'ignore' };
    expect(parseScript(JSON.stringify({ agent, turns: [] })).agent).toEqual(agent);
    expect(() => parseScript(JSON.stringify({ agent: { list_changed: 'sometimes' }, turns: [] }))).toThrow(
      /agent\.list_changed/,
    );
    expect(() => parseScript(JSON.stringify({ agent: { modes: true }, turns: [] }))).toThrow(/agent/);
  });
});
