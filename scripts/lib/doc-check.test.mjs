// Run by `npm run lint:docs` (node --test): the documentation check over small planted trees.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkDocs } from './doc-check.mjs';
import { composeIndex, readDecision } from './decisions.mjs';
import { anchorOf, anchorsOf, linksOf } from './doc-links.mjs';
import { parseFrontMatter } from './front-matter.mjs';
import { existsIn } from './repo-files.mjs';

/** The check over a tree `{ path: text }`, as `path:line: message` strings (line 0 when none). */
function problemsOf(tree, extraFiles = []) {
  const files = Object.entries(tree).map(([path, text]) => ({ path, text }));
  const { problems } = checkDocs(files, existsIn([...Object.keys(tree), ...extraFiles]));
  return problems.map((p) => `${p.path}:${p.line ?? 0}: ${p.message}`);
}

const record = (fields, title = 'A decision') => `---\n${fields.join('\n')}\n---\n\n# ${title}\n\n## Context\n`;
const GUIDE = '# Guide\n\n## Secrets at rest\n\n## Secrets at rest\n';

describe('links and anchors', () => {
  const page = (body) => ({ 'docs/guide.md': GUIDE, 'docs/page.md': body, 'scripts/run.mjs': '' });

  test('links to files, folders and headings of the repository pass', () => {
    const body = [
      '[guide](guide.md), [anchor](guide.md#secrets-at-rest), [repeat](guide.md#secrets-at-rest-1),',
      '[folder](../scripts), [root](/scripts/run.mjs), [self](#page), [web](https://example.com/x),',
      '`[not a link](missing.md)`',
      '```',
      '[in a fence](missing.md)',
      '```',
      '# Page',
    ].join('\n');
    assert.deepEqual(problemsOf(page(body)), []);
  });

  test('a planted broken link is caught with its line', () => {
    assert.deepEqual(problemsOf(page('fine\n\nsee [the guide](gide.md)\n')), [
      'docs/page.md:3: broken link gide.md: no such file or folder (docs/gide.md)',
    ]);
  });

  test('a planted broken anchor is caught', () => {
    assert.deepEqual(problemsOf(page('[x](guide.md#secrets)')), [
      'docs/page.md:1: broken link guide.md#secrets: docs/guide.md has no heading with the anchor #secrets',
    ]);
  });

  test('a link that leaves the repository is caught even when the file exists there', () => {
    assert.deepEqual(problemsOf(page('[style](../../elsewhere/GUIDE.md#8)')), [
      'docs/page.md:1: broken link ../../elsewhere/GUIDE.md#8: points outside the repository',
    ]);
  });

  test('anchors follow GitHub: code, links and punctuation dropped, repeats numbered', () => {
    assert.equal(anchorOf('`GET /api/events`: the stream'), 'get-apievents-the-stream');
    assert.equal(
      anchorOf('"Allow always" is remembered by kandev, per task'),
      'allow-always-is-remembered-by-kandev-per-task',
    );
    assert.equal(anchorOf('[Replicas](replicas.md) and leases'), 'replicas-and-leases');
    assert.deepEqual([...anchorsOf('# A\n## A\n```\n# B\n```\n<a id="c"></a>')], ['a', 'a-1', 'c']);
  });

  test('link text with code and a wrapped line still yields the target and its line', () => {
    assert.deepEqual(linksOf('x\n[`docs/a.md`](docs/a.md) and [two\nlines](b.md)\n[ref]: c.md'), [
      { target: 'docs/a.md', line: 2 },
      { target: 'b.md', line: 2 },
      { target: 'c.md', line: 4 },
    ]);
  });
});

// The planted citations are assembled, so this file does not itself cite what it plants.
const STYLE_FILE = ['STYLE', 'md'].join('.');
const ISSUE_14 = ['issue', '14'].join(' ');

describe('citations outside the repository', () => {
  test('planted citations in docs, comments and tests are caught', () => {
    const problems = problemsOf({
      'docs/a.md': `As ${STYLE_FILE} says.\nFixed in ${ISSUE_14}.\nThe provider seed decides.\nSee the style guide §8.\n`,
      'packages/x/src/a.ts': '// invariant 6: re-checked\n// see ADR 2026-12-03-provider-update-stream\nconst y = 1;\n',
      'test/b.test.ts': `test('refused (${ISSUE_14})', () => {});\n`,
    });
    assert.deepEqual(
      problems.map((p) => p.replace(/(: cites .*?): .*$/, '$1')),
      [
        'docs/a.md:1: cites a style guide outside the repository',
        'docs/a.md:2: cites a numbered issue',
        'docs/a.md:3: cites a "seed" document outside the repository',
        'docs/a.md:4: cites a style guide outside the repository',
        'packages/x/src/a.ts:1: cites a numbered invariant from outside the repository',
        'packages/x/src/a.ts:2: cites a decision record by its file name (name the decision in words, or point at the reference page)',
        'test/b.test.ts:1: cites a numbered issue',
      ],
    );
  });

  test('a random generator seed, zod issues and a decision named in words pass', () => {
    const tree = {
      'docs/a.md': 'fast-check with the fixed seed `20261201`; seed 20261201 replays it.\n',
      'packages/x/src/a.ts': '// zod issues: details.issues lists them\nconst seed = 3; // replayed from its seed\n',
      'packages/x/src/b.ts': '// Why: see the decision on replica wake-ups (docs/replicas.md).\n',
    };
    assert.deepEqual(problemsOf(tree), []);
  });
});

describe('decision records', () => {
  const dir = 'docs/decisions';
  const base = ['date: 2026-12-01', 'area: [backend]', 'reference: ../guide.md#secrets-at-rest'];
  const tree = (a, b) => ({
    'docs/guide.md': GUIDE,
    [`${dir}/2026-12-01-old.md`]: record(['status: superseded', ...base, ...a], 'Old'),
    [`${dir}/2026-12-02-new.md`]: record(
      ['status: accepted', ...base.map((l) => l.replace('12-01', '12-02')), ...b],
      'New',
    ),
  });

  test('a chain stated on both sides passes', () => {
    assert.deepEqual(
      problemsOf(tree(['superseded_by:', '  - 2026-12-02-new.md'], ['supersedes: [2026-12-01-old.md]'])),
      [],
    );
  });

  test('a one-sided chain and a missing record are caught', () => {
    const problems = problemsOf(tree(['superseded_by: [2026-12-02-new.md]'], ['amends: [2026-11-01-gone.md]']));
    assert.deepEqual(problems, [
      'docs/decisions/2026-12-01-old.md:0: superseded_by 2026-12-02-new.md, but 2026-12-02-new.md has no "supersedes" naming this record',
      'docs/decisions/2026-12-02-new.md:0: amends names 2026-11-01-gone.md, which is not a record here',
    ]);
  });

  test('a status that contradicts the chain is caught', () => {
    const wrongStatus = tree(['superseded_by: [2026-12-02-new.md]'], ['supersedes: [2026-12-01-old.md]']);
    wrongStatus[`${dir}/2026-12-01-old.md`] = wrongStatus[`${dir}/2026-12-01-old.md`].replace('superseded', 'accepted');
    assert.deepEqual(problemsOf(wrongStatus), [
      'docs/decisions/2026-12-01-old.md:0: status is "accepted" but the record is superseded by another: status: superseded',
    ]);
  });

  test('missing front matter, a wrong date and a dead reference are caught', () => {
    const problems = problemsOf({
      'docs/guide.md': GUIDE,
      [`${dir}/2026-12-01-bare.md`]: '# Bare\n\nStatus: accepted\n',
      [`${dir}/2026-12-02-dated.md`]: record([
        'status: accepted',
        'date: 2026-12-03',
        'area: [x]',
        'reference: ../nope.md',
      ]),
    });
    assert.deepEqual(problems, [
      'docs/decisions/2026-12-02-dated.md:1: reference ../nope.md: no such file or folder (docs/nope.md)',
      'docs/decisions/2026-12-01-bare.md:0: no front matter (status, date, area, reference between --- lines)',
      "docs/decisions/2026-12-02-dated.md:0: date 2026-12-03 differs from the file name's 2026-12-02",
    ]);
  });

  test('the index is generated from the records and keeps the hand-written part', () => {
    const old = readDecision(
      '2026-12-01-old.md',
      tree(['superseded_by: [2026-12-02-new.md]'], [])[`${dir}/2026-12-01-old.md`],
    );
    const index = composeIndex('# Decisions\n\nIntro.\n\n<!-- Generated: old table -->\n| stale |\n', [old]);
    assert.equal(
      index,
      [
        '# Decisions',
        '',
        'Intro.',
        '',
        "<!-- Generated by npm run gen:decisions-index from the records' front matter: edit those, not below. -->",
        '',
        '| date | decision | status | today |',
        '| --- | --- | --- | --- |',
        '| 2026-12-01 | [Old](2026-12-01-old.md) | superseded by [new](2026-12-02-new.md) | [guide](../guide.md#secrets-at-rest) |',
        '',
      ].join('\n'),
    );
  });

  test('front matter: scalars, flow lists wrapped over lines, block lists; anything else is refused', () => {
    const { data, bodyLine } = parseFrontMatter('---\na: x\nb: [1,\n  2]\nc:\n  - y\n---\nbody');
    assert.deepEqual(data, { a: 'x', b: ['1', '2'], c: ['y'] });
    assert.equal(bodyLine, 8);
    assert.throws(() => parseFrontMatter('---\na: x\n  nested: y\n---\n'), /line 3/);
    assert.throws(() => parseFrontMatter('---\na: x\n'), /no closing/);
  });
});
