import fc from 'fast-check';

/** Field names the REST API reads somewhere: shaped bodies use them so validation goes past "unknown field". */
export const BODY_FIELDS = [
  'name',
  'workspace_id',
  'remote_url',
  'local_path',
  'provider',
  'title',
  'parent_id',
  'autopilot',
  'repository_ids',
  'agent_profile_id',
  'command',
  'args',
  'env',
  'supports_mcp',
  'sources',
  'repository_id',
  'base_branch',
  'number',
  'project_path',
  'iid',
  'answers',
  'question_index',
  'option',
  'text',
  'surface',
  'owns_task_title',
  'prompt',
  'token',
  'username',
  'base_url',
  'executor',
] as const;

export const QUERY_KEYS = ['limit', 'cursor', 'state', 'task_id', 'status'] as const;

/** Strings that have broken parsers before: bad percent-encoding, traversal, blanks, huge and odd ones. */
export const NASTY_SEGMENTS = [
  '%ZZ',
  '%',
  '%E0%A4%A',
  '..',
  '.',
  '%2e%2e',
  '%00',
  '%20',
  '%C2%A0',
  'null',
  '-1',
  '0',
  'x'.repeat(5000),
];

/** A path parameter: a live id, a well-formed unknown one, or garbage (raw or encoded). */
export function pathSegment(liveIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...liveIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_SEGMENTS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent) },
  );
}

/** A value for a body field: often a live id (so requests get past lookups), else anything JSON. */
function fieldValue(liveIds: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...liveIds),
    fc.array(fc.constantFrom(...liveIds), { maxLength: 3 }),
    fc.string({ maxLength: 30 }),
    fc.constantFrom(
      '',
      '   ',
      '\t\n',
      '\u00a0',
      'github',
      'gitlab',
      'https://github.com/acme/x.git',
      '/',
      '/etc/passwd',
    ),
    fc.integer({ min: -2, max: 300 }),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
  );
}

export type FuzzBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };

/** No body, arbitrary JSON, an object of known fields, or text that is not JSON at all. */
export function requestBody(liveIds: readonly string[]): fc.Arbitrary<FuzzBody> {
  const shaped = fc.dictionary(fc.constantFrom(...BODY_FIELDS), fieldValue(liveIds), { maxKeys: 5 });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<FuzzBody>({ kind: 'none' }) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value): FuzzBody => ({ kind: 'json', value })) },
    { weight: 5, arbitrary: shaped.map((value): FuzzBody => ({ kind: 'json', value })) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.string({ maxLength: 60 }), fc.constantFrom('{', '{"a":', '[1,', '"', 'nul', '{"name":"x"}}'))
        .filter((text) => !isJson(text))
        .map((text): FuzzBody => ({ kind: 'raw', text })),
    },
  );
}

/** `''` or `?k=v&…` with known and unknown keys, values raw or encoded. */
export function queryString(): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
    fc.constantFrom('%ZZ', '0', '-1', '201', '1e3', 'pending', '[]', ''),
  );
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 }).map(encodeURIComponent)),
    value,
  );
  return fc
    .array(pair, { maxLength: 3 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
