import fc from 'fast-check';
import type { PermissionOptionInfo, PermissionRequestInfo } from '@kandev/protocol';
import {
  decideByGrants,
  grantKeyOf,
  MAX_GRANT_TITLE_BYTES,
  type PermissionGrant,
  settleAnswer,
  toPermissionGrantView,
} from './grant';

const ONCE = { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' };
const ALWAYS = { optionId: 'allow-always', name: 'Allow always', kind: 'allow_always' };
const REJECT = { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' };
const REJECT_ALWAYS = { optionId: 'reject-always', name: 'Never', kind: 'reject_always' };

const request = (
  title: string,
  toolKind: string | null = 'execute',
  options: readonly PermissionOptionInfo[] = [ONCE, ALWAYS, REJECT],
): PermissionRequestInfo => ({
  requestId: 'r',
  sessionId: 's',
  taskId: 't',
  toolCallId: 'tc',
  title,
  toolKind,
  options,
});

const grant = (title: string, toolKind = 'execute'): PermissionGrant => ({
  id: `g-${title}`,
  taskId: 't',
  toolKind,
  title,
  grantedBy: 'operator',
  sessionId: 's',
  createdAt: '2026-12-04T10:00:00.000Z',
});

describe('grantKeyOf', () => {
  test.each([
    ['a command line', request('git add src/a.ts'), { toolKind: 'execute', title: 'git add src/a.ts' }],
    ['no kind from the agent: kind ""', request('Write README.md', null), { toolKind: '', title: 'Write README.md' }],
    ['the title exactly as sent (spaces kept)', request(' ls  -la '), { toolKind: 'execute', title: ' ls  -la ' }],
    ['an empty title: never', request(''), null],
    ['a blank title: never', request('  \t'), null],
    ['a title over the byte cap: never', request('é'.repeat(MAX_GRANT_TITLE_BYTES / 2 + 1)), null],
    ['an overlong kind: never', request('ls', 'k'.repeat(65)), null],
  ])('%s', (_name, given, expected) => {
    expect(grantKeyOf(given)).toEqual(expected);
  });
});

describe('decideByGrants', () => {
  test.each([
    ['the same kind and title: allow once', request('npm test'), [grant('npm test')], 'allow-once'],
    ['no grants: ask', request('npm test'), [], 'ask'],
    ['another title: ask', request('npm test -- --all'), [grant('npm test')], 'ask'],
    ['a prefix of the granted title: ask', request('git add'), [grant('git add src/a.ts')], 'ask'],
    ['the granted title as a prefix: ask', request('git add src/a.ts && rm -rf /'), [grant('git add src/a.ts')], 'ask'],
    ['another case: ask', request('NPM TEST'), [grant('npm test')], 'ask'],
    ['another kind: ask', request('README.md', 'edit'), [grant('README.md', 'read')], 'ask'],
    ['an empty title never matches a grant keyed ""', request(''), [grant('')], 'ask'],
    ['no allow_once offered: ask', request('npm test', 'execute', [ALWAYS, REJECT]), [grant('npm test')], 'ask'],
  ])('%s', (_name, given, grants, expected) => {
    const verdict = decideByGrants(given, grants);
    expect(verdict.kind === 'allow' ? verdict.optionId : verdict.kind).toBe(expected);
  });

  test('a grant never matches a request of a different title or kind', () => {
    const kindArb = fc.option(fc.constantFrom('execute', 'edit', 'read', 'other', ''), { nil: null });
    fc.assert(
      fc.property(fc.string(), kindArb, fc.string(), kindArb, (title, kind, grantedTitle, grantedKind) => {
        fc.pre(title !== grantedTitle || (kind ?? '') !== (grantedKind ?? ''));
        const verdict = decideByGrants(request(title, kind), [grant(grantedTitle, grantedKind ?? '')]);
        expect(verdict.kind).toBe('ask');
      }),
    );
  });
});

describe('settleAnswer', () => {
  test.each([
    ['allow_always: the allow_once option, remembered', request('npm test'), 'allow-always', 'allow-once', true],
    ['allow_once: as chosen, nothing remembered', request('npm test'), 'allow-once', 'allow-once', false],
    ['reject_once: as chosen', request('npm test'), 'reject-once', 'reject-once', false],
    [
      'reject_always: as chosen, nothing remembered',
      request('x', 'execute', [ONCE, REJECT_ALWAYS]),
      'reject-always',
      'reject-always',
      false,
    ],
    ['allow_always with an empty title: allow_once, not remembered', request(''), 'allow-always', 'allow-once', false],
    [
      'allow_always when the agent offers no allow_once: as chosen, remembered',
      request('npm test', 'execute', [ALWAYS, REJECT]),
      'allow-always',
      'allow-always',
      true,
    ],
  ])('%s', (_name, given, chosen, sent, remembered) => {
    const settled = settleAnswer(given, chosen);
    expect({ sent: settled.optionId, remembered: settled.remember !== null }).toEqual({ sent, remembered });
    if (remembered) expect(settled.remember).toEqual({ toolKind: given.toolKind ?? '', title: given.title });
  });

  test('an allow_always answer is never passed on when allow_once is offered', () => {
    const kindArb = fc.constantFrom('allow_once', 'allow_always', 'reject_once', 'reject_always', 'other');
    const optionsArb = fc.uniqueArray(
      fc.record({ optionId: fc.string({ minLength: 1, maxLength: 6 }), name: fc.string(), kind: kindArb }),
      { selector: (option) => option.optionId, minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(optionsArb, fc.string(), fc.nat(), (options, title, pick) => {
        const chosen = options[pick % options.length]!;
        const settled = settleAnswer(request(title, 'execute', options), chosen.optionId);
        const sent = options.find((option) => option.optionId === settled.optionId);
        if (options.some((option) => option.kind === 'allow_once')) expect(sent?.kind).not.toBe('allow_always');
        // Only "always" is ever changed, and then only into allow_once.
        if (chosen.kind !== 'allow_always') expect(settled.optionId).toBe(chosen.optionId);
        else expect(['allow_once', 'allow_always']).toContain(sent?.kind);
      }),
    );
  });
});

test('the view names every column in snake_case', () => {
  expect(toPermissionGrantView(grant('npm test'))).toEqual({
    id: 'g-npm test',
    task_id: 't',
    tool_kind: 'execute',
    title: 'npm test',
    granted_by: 'operator',
    session_id: 's',
    created_at: '2026-12-04T10:00:00.000Z',
  });
});
