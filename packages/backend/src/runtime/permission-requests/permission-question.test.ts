import fc from 'fast-check';
import type { PermissionRequestInfo } from '@kandev/protocol';
import { StoredQuestionItemSchema } from '../questions/question';
import { optionFromReply, REJECT_LABEL, toPermissionQuestion } from './permission-question';

const OPTIONS = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
];

const request = (options: PermissionRequestInfo['options']): PermissionRequestInfo => ({
  requestId: 'r',
  sessionId: 's',
  taskId: 't',
  toolCallId: 'tc',
  title: 'Run npm test',
  toolKind: 'execute',
  options,
});

describe('toPermissionQuestion', () => {
  test("one item with the agent's options by name, kind as description", () => {
    const { args, optionByLabel } = toPermissionQuestion(request(OPTIONS));
    expect(args.questions).toEqual([
      {
        id: 'permission',
        title: 'Permission',
        prompt: 'The agent asks for permission: Run npm test (execute)',
        options: [
          { label: 'Allow once', description: 'allow_once' },
          { label: 'Allow always', description: 'allow_always' },
          { label: 'Reject', description: 'reject_once' },
        ],
      },
    ]);
    expect([...optionByLabel]).toEqual([
      ['Allow once', 'allow-once'],
      ['Allow always', 'allow-always'],
      ['Reject', 'reject-once'],
    ]);
  });

  test('whatever the agent offers, the stored item is valid (2-6 unique labels of at most 60)', () => {
    const optionArb = fc.record({
      optionId: fc.string({ minLength: 1, maxLength: 10 }),
      name: fc.string({ maxLength: 90 }),
      kind: fc.constantFrom('allow_once', 'reject_once'),
    });
    fc.assert(
      fc.property(fc.array(optionArb, { maxLength: 9 }), (options) => {
        const { args, optionByLabel } = toPermissionQuestion(request(options));
        expect(StoredQuestionItemSchema.safeParse(args.questions[0]).success).toBe(true);
        if (options.length < 2) expect(optionByLabel.get(REJECT_LABEL)).toBeNull();
      }),
    );
  });
});

describe('optionFromReply (a parent answering a permission question)', () => {
  test.each([
    ['Allow once', 'allow-once'],
    ['allow always, it is fine', 'allow-always'],
    ['Reject', 'reject-once'],
    ['use reject-once', 'reject-once'],
    ['No idea', null],
    ['Allow once or Reject, you choose', null],
  ])('%j -> %j', (reply, expected) => {
    expect(optionFromReply(reply, OPTIONS)).toBe(expected);
  });

  test('a reply naming no option never allows', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/allow|reject/i.test(s)),
        (reply) => expect(optionFromReply(reply, OPTIONS)).toBeNull(),
      ),
    );
  });
});
