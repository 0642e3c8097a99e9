import fc from 'fast-check';
import { sha256Hex, type WireLaunchConfigOutput, type WireRestoreSessionRequestOutput } from '@kandev/protocol';
import { MCP_TOKEN_A, WIRE_SESSION_ID, wireLaunchConfig } from '../testing/launch-config-fixture';
import { parseLaunchConfig, parsePrompt, parseProviderUpdate, parseRestore, parseSessionId } from './request-parsers';

const invalid = expect.objectContaining({ code: 'invalid_argument' }) as Error;

describe('parseLaunchConfig (CreateSession)', () => {
  test('a complete config parses to the domain type', () => {
    expect(parseLaunchConfig(wireLaunchConfig({ providers: ['gitlab', 'github'] }))).toMatchObject({
      sessionId: WIRE_SESSION_ID,
      surface: 'kanban_task',
      questionCapability: 'user',
      providers: ['github', 'gitlab'],
      revision: 1,
    });
  });

  test.each<[string, Record<string, unknown>]>([
    ['UNSPECIFIED question capability', { question_capability: 'QUESTION_CAPABILITY_UNSPECIFIED' }],
    ['UNSPECIFIED surface', { surface: 'SURFACE_UNSPECIFIED' }],
    ['unknown surface number', { surface: 9 }],
    ['empty session id', { session_id: '' }],
    ['path-like session id', { session_id: '../../x' }],
    ['10,000-character session id', { session_id: 'a'.repeat(10_000) }],
    ['UUID with trailing text', { session_id: `${WIRE_SESSION_ID}/../x` }],
    ['UUID without dashes', { session_id: WIRE_SESSION_ID.replaceAll('-', '') }],
    ['empty task id', { task_id: '' }],
    ['short MCP token', { mcp_token: 'short' }],
    ['revision 0', { revision: '0' }],
    ['revision not a number', { revision: 'abc' }],
  ])('%s: invalid_argument', (_name, patch) => {
    expect(() => parseLaunchConfig({ ...wireLaunchConfig(), ...patch })).toThrow(invalid);
  });

  test('any UUID is a session id, in either case; the refusal never echoes the id', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.boolean(), (uuid, upper) => {
        const sessionId = upper ? uuid.toUpperCase() : uuid;
        expect(parseLaunchConfig(wireLaunchConfig({ sessionId })).sessionId).toBe(sessionId);
      }),
    );
    expect(() => parseLaunchConfig({ ...wireLaunchConfig(), session_id: '../../secret-path' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument', message: 'session_id must be a UUID' }) as Error,
    );
  });

  test('unknown provider numbers are ignored (a newer backend)', () => {
    const wire = { ...wireLaunchConfig(), providers: [7, 'PROVIDER_GITLAB', 'PROVIDER_UNSPECIFIED'] };
    expect(parseLaunchConfig(wire as never).providers).toEqual(['gitlab']);
  });
});

describe('parseProviderUpdate / parseSessionId', () => {
  test('normalises providers and parses the revision', () => {
    const parsed = parseProviderUpdate({
      session_id: 's',
      providers: ['PROVIDER_GITLAB', 'PROVIDER_GITHUB', 'PROVIDER_GITLAB'],
      revision: '12',
    });
    expect(parsed).toEqual({ sessionId: 's', providers: ['github', 'gitlab'], revision: 12 });
  });

  test.each([
    ['no session id', { session_id: '', providers: [], revision: '2' }],
    ['bad revision', { session_id: 's', providers: [], revision: '-1' }],
  ])('%s: invalid_argument', (_name, wire) => {
    expect(() => parseProviderUpdate(wire)).toThrow(invalid);
  });

  test('session id requests', () => {
    expect(parseSessionId({ session_id: 'abc' })).toBe('abc');
    expect(() => parseSessionId({ session_id: '' })).toThrow(invalid);
    expect(() => parseSessionId({})).toThrow(invalid);
  });
});

describe('parsePrompt', () => {
  test('session, prompt id and text', () => {
    expect(parsePrompt({ session_id: 's', prompt_id: 'p', text: ' do it ' })).toEqual({
      sessionId: 's',
      promptId: 'p',
      text: ' do it ',
    });
  });

  test.each([
    ['no session id', { session_id: '', prompt_id: 'p', text: 'x' }, 'session_id'],
    ['no prompt id', { session_id: 's', prompt_id: '', text: 'x' }, 'prompt_id'],
    ['empty text', { session_id: 's', prompt_id: 'p', text: '' }, 'text'],
    ['blank text', { session_id: 's', prompt_id: 'p', text: ' \n\t' }, 'text'],
    // The backend's rule (protocol's isBlankText): what its doors let through, this never refuses.
    ['no-break spaces', { session_id: 's', prompt_id: 'p', text: '\u00a0\u3000' }, 'text'],
    ['next line', { session_id: 's', prompt_id: 'p', text: '\u0085' }, 'text'],
    ['nothing at all', {}, 'session_id'],
  ])('%s: invalid_argument naming the field', (_name, wire, field) => {
    expect(() => parsePrompt(wire)).toThrow(
      expect.objectContaining({ code: 'invalid_argument', message: expect.stringContaining(field) }) as Error,
    );
  });
});

describe('parseRestore (RestoreSession)', () => {
  const HASH = sha256Hex(MCP_TOKEN_A);
  const stored = (overrides: Partial<WireLaunchConfigOutput> = {}) => ({
    config: { ...wireLaunchConfig(), mcp_token: '', ...overrides },
    mcp_token_sha256: HASH,
  });

  test('a stored MCP-only config and the token hash parse', () => {
    expect(parseRestore(stored())).toMatchObject({
      config: { sessionId: WIRE_SESSION_ID, mcpToken: '' },
      mcpTokenHash: HASH,
    });
  });

  test.each<[string, WireRestoreSessionRequestOutput]>([
    ['no config', { config: null, mcp_token_sha256: HASH }],
    ['a token in the config', { ...stored(), config: wireLaunchConfig() }],
    ['a hash that is not 64 hex characters', { ...stored(), mcp_token_sha256: 'abc' }],
    ['an upper-case hash', { ...stored(), mcp_token_sha256: HASH.toUpperCase() }],
    [
      'an agent (it needs the token itself)',
      stored({
        agent: {
          command: 'node',
          args: [],
          env: {},
          cwd: '',
          supports_mcp: true,
          resume_acp_session_id: '',
          permission_policy: 'PERMISSION_POLICY_ASK',
        },
      }),
    ],
    ['a session id that is not a UUID', stored({ session_id: 'session-1' })],
  ])('refused: %s', (_name, wire) => {
    expect(() => parseRestore(wire)).toThrow(invalid);
  });
});
