import { renderArguments, renderReply, stringsIn, UnknownVariableError, unknownPlaceholders } from './reply-template';

describe('renderReply', () => {
  test.each([
    ['no placeholders', 'plain', 'plain'],
    ['both, repeated, with inner spaces', '{{ordinal}}:{{prompt}}|{{ prompt }}', '2:hello|hello'],
    ['an unknown name is left as written', '{{other}} {{prompt}}', '{{other}} hello'],
  ])('%s', (_name, text, expected) => {
    expect(renderReply(text, { prompt: 'hello', ordinal: 2 })).toBe(expected);
  });

  test('a prompt that itself holds a placeholder is echoed verbatim, not expanded again', () => {
    expect(renderReply('got: {{prompt}}', { prompt: 'say {{ordinal}}', ordinal: 7 })).toBe('got: say {{ordinal}}');
  });
});

describe('renderReply: variables and the system prompt', () => {
  const vars = new Map([
    ['qid', 'q-1'],
    ['echo', '{{prompt}}'],
  ]);

  test('{{var:<name>}} and {{system_prompt}} are filled in', () => {
    expect(
      renderReply('{{var:qid}}|{{ var:qid }}|{{system_prompt}}', { prompt: 'p', ordinal: 0, vars, systemPrompt: 'S' }),
    ).toBe('q-1|q-1|S');
  });

  test('a captured value that holds a placeholder is used verbatim', () => {
    expect(renderReply('{{var:echo}}', { prompt: 'p', ordinal: 0, vars })).toBe('{{prompt}}');
  });

  test('no system prompt reads as empty', () => {
    expect(renderReply('[{{system_prompt}}]', { prompt: 'p', ordinal: 0 })).toBe('[]');
  });

  test('an unset variable throws, naming it and the variables that are set', () => {
    expect(() => renderReply('{{var:nope}}', { prompt: 'p', ordinal: 0, vars })).toThrow(UnknownVariableError);
    expect(() => renderReply('{{var:nope}}', { prompt: 'p', ordinal: 0, vars })).toThrow(
      'unknown variable {{var:nope}}: no capture step has set it in this session (set so far: echo, qid)',
    );
  });

  test('arguments: every string value at any depth; keys and other values unchanged', () => {
    const args = { '{{var:qid}}': '{{var:qid}}', list: [1, '{{ordinal}}', { deep: '{{var:qid}}' }], flag: false };
    expect(renderArguments(args, { prompt: 'p', ordinal: 2, vars })).toEqual({
      '{{var:qid}}': 'q-1',
      list: [1, '2', { deep: 'q-1' }],
      flag: false,
    });
  });
});

describe('where the agent runs', () => {
  test('{{cwd}} and {{git_branch}} are filled in; the branch is read only when asked', () => {
    let reads = 0;
    const gitBranch = () => {
      reads += 1;
      return 'kandev/t1';
    };
    expect(renderReply('{{cwd}} on {{ git_branch }}', { prompt: 'p', ordinal: 0, cwd: '/w/t1/app', gitBranch })).toBe(
      '/w/t1/app on kandev/t1',
    );
    expect(renderReply('{{prompt}}', { prompt: 'p', ordinal: 0, cwd: '/w', gitBranch })).toBe('p');
    expect(reads).toBe(1);
  });

  test('without them both are empty, and neither is an unknown placeholder', () => {
    expect(renderReply('[{{cwd}}|{{git_branch}}]', { prompt: 'p', ordinal: 0 })).toBe('[|]');
    expect(unknownPlaceholders('{{cwd}} {{git_branch}}')).toEqual([]);
  });
});

describe('unknownPlaceholders', () => {
  test('names every {{...}} that is not a placeholder or a well-formed variable', () => {
    expect(
      unknownPlaceholders('{{prompt}} {{ ordinal }} {{system_prompt}} {{var:q_1-x}} {{promt}} {{}} {{var:}} {{var:9}}'),
    ).toEqual(['promt', '', 'var:', 'var:9']);
  });
});

describe('stringsIn', () => {
  test('collects strings from values at any depth, not keys', () => {
    expect(stringsIn({ k: 'a', l: ['b', 1, { m: 'c' }], n: null })).toEqual(['a', 'b', 'c']);
  });
});
