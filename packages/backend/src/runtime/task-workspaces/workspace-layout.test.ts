import fc from 'fast-check';
import { join, sep } from 'node:path';
import {
  agentCwd,
  authHeaderConfigKey,
  cloneAuthHeader,
  CONTAINER_WORKSPACE_PATH,
  displayUrl,
  folderBaseName,
  folderCandidates,
  isStrictlyInside,
  taskBranchName,
  taskWorkspacePath,
  type WorkspaceLayout,
} from './workspace-layout';

const ROOT = '/data/workspaces';

describe('paths', () => {
  test('a task workspace is <root>/<task id>; an id that is no plain name is refused', () => {
    expect(taskWorkspacePath(ROOT, '0b6f2c1e-1d2a')).toBe('/data/workspaces/0b6f2c1e-1d2a');
    for (const bad of ['..', '../x', 'a/b', '', '.hidden', 'a\\b', 'a..b']) {
      expect(() => taskWorkspacePath(ROOT, bad)).toThrow(/is no path/);
    }
  });

  test('isStrictlyInside: only paths below the root, never the root itself or a way out', () => {
    expect(isStrictlyInside(ROOT, `${ROOT}/t`)).toBe(true);
    expect(isStrictlyInside(ROOT, `${ROOT}/t/app`)).toBe(true);
    expect(isStrictlyInside(ROOT, ROOT)).toBe(false);
    expect(isStrictlyInside(ROOT, `${ROOT}/`)).toBe(false);
    expect(isStrictlyInside(ROOT, `${ROOT}/t/../..`)).toBe(false);
    expect(isStrictlyInside(ROOT, '/data/workspaces-other/t')).toBe(false);
    expect(isStrictlyInside(ROOT, '/')).toBe(false);
  });

  test('property: whatever segments are joined, a path the rule accepts lies below the root', () => {
    const segment = fc.oneof(fc.constantFrom('..', '.', '', 'a', 'b..', '...'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        const path = join(ROOT, ...segments);
        if (isStrictlyInside(ROOT, path)) expect(path.startsWith(`${ROOT}${sep}`)).toBe(true);
      }),
    );
  });

  test('property: a folder name is one plain, visible path segment', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (name) => {
        const folder = folderBaseName(name);
        expect(folder).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/);
        expect(isStrictlyInside(ROOT, join(ROOT, 't', folder))).toBe(true);
      }),
    );
  });

  test('folder names: readable, then numbered on collision', () => {
    expect(folderBaseName('my-app')).toBe('my-app');
    expect(folderBaseName('.hidden app!')).toBe('hidden-app');
    expect(folderBaseName('..')).toBe('repo');
    const candidates = folderCandidates('app');
    expect([candidates.next().value, candidates.next().value, candidates.next().value]).toEqual([
      'app',
      'app-2',
      'app-3',
    ]);
  });

  test('the task branch is kandev/<task id>', () => {
    expect(taskBranchName('t-1')).toBe('kandev/t-1');
  });
});

describe('agentCwd', () => {
  const folder = (name: string) => ({
    repositoryId: name,
    folder: name,
    path: `${ROOT}/t/${name}`,
    kind: 'worktree' as const,
    gitCommonDir: `/src/${name}/.git`,
  });
  const layout = (names: string[]): WorkspaceLayout => ({
    taskId: 't',
    root: `${ROOT}/t`,
    branch: 'kandev/t',
    folders: names.map(folder),
  });

  test('one repository: its folder; none or several: the workspace root; the same under the agent’s view of it', () => {
    expect(agentCwd(layout(['app']))).toBe(`${ROOT}/t/app`);
    expect(agentCwd(layout(['app']), CONTAINER_WORKSPACE_PATH)).toBe('/workspace/app');
    expect(agentCwd(layout([]))).toBe(`${ROOT}/t`);
    expect(agentCwd(layout(['app', 'lib']))).toBe(`${ROOT}/t`);
    expect(agentCwd(layout(['app', 'lib']), CONTAINER_WORKSPACE_PATH)).toBe('/workspace');
    expect(agentCwd(layout(['app']), '/shared/ws/t')).toBe('/shared/ws/t/app');
  });
});

describe('cloneAuthHeader', () => {
  const gitlab = { provider: 'gitlab', token: 'tok', baseUrl: 'https://gitlab.example.com' };
  const github = { provider: 'github', token: 'ghp', baseUrl: null };
  const basic = (user: string, token: string) =>
    `Authorization: Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

  test("the repository's own provider, over https, to the credential's host", () => {
    expect(cloneAuthHeader('https://gitlab.example.com/a/b.git', 'gitlab', gitlab)).toBe(basic('oauth2', 'tok'));
    expect(cloneAuthHeader('https://github.com/a/b.git', 'github', github)).toBe(basic('x-access-token', 'ghp'));
  });

  test('never to another provider, another host, in clear over a network, over ssh, or without a credential', () => {
    expect(cloneAuthHeader('https://gitlab.example.com/a/b.git', 'github', gitlab)).toBeNull();
    expect(cloneAuthHeader('https://evil.example.com/a/b.git', 'gitlab', gitlab)).toBeNull();
    expect(cloneAuthHeader('http://gitlab.example.com/a/b.git', 'gitlab', { ...gitlab, baseUrl: null })).toBeNull();
    expect(cloneAuthHeader('git@gitlab.example.com:a/b.git', 'gitlab', gitlab)).toBeNull();
    expect(cloneAuthHeader('ssh://git@gitlab.example.com/a/b.git', 'gitlab', gitlab)).toBeNull();
    expect(cloneAuthHeader('git://gitlab.example.com/a/b.git', 'gitlab', gitlab)).toBeNull();
    expect(cloneAuthHeader('https://gitlab.example.com/a/b.git', null, gitlab)).toBeNull();
    expect(cloneAuthHeader('https://gitlab.example.com/a/b.git', 'gitlab', undefined)).toBeNull();
  });

  test('plain http only to a loopback host (tests and local servers)', () => {
    const local = { ...gitlab, baseUrl: 'http://127.0.0.1:8080' };
    expect(cloneAuthHeader('http://127.0.0.1:8080/a/b.git', 'gitlab', local)).toBe(basic('oauth2', 'tok'));
    expect(cloneAuthHeader('http://127.0.0.1:9090/a/b.git', 'gitlab', local)).toBeNull();
  });

  test('the header is scoped to the remote origin', () => {
    expect(authHeaderConfigKey('https://gitlab.example.com:8443/a/b.git')).toBe(
      'http.https://gitlab.example.com:8443/.extraHeader',
    );
  });

  test('displayUrl drops a user and password given in the URL', () => {
    expect(displayUrl('https://user:pw@github.com/a/b.git')).toBe('https://github.com/a/b.git');
    expect(displayUrl('git@github.com:a/b.git')).toBe('github.com:a/b.git');
  });
});
