import { envPairs, loadProfileFile } from './profile-file';

const read = (files: Record<string, string>) => (path: string) => {
  const text = files[path];
  if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
  return text;
};

describe('loadProfileFile', () => {
  test('a shipped profile: args and env default to empty', () => {
    const file = { name: 'Claude Code (ACP)', command: 'npx', args: ['-y', 'pkg@1.0.0'], permission_policy: 'ask' };
    expect(loadProfileFile('p.json', read({ 'p.json': JSON.stringify(file) }))).toEqual({ ...file, env: {} });
  });

  test.each([
    ['a missing file', {}, /--from p\.json: ENOENT/],
    ['not JSON', { 'p.json': '{' }, /--from p\.json: .*JSON/],
    ['an unknown field', { 'p.json': '{"name":"a","command":"b","color":"red"}' }, /--from p\.json: .*color/],
    ['no command', { 'p.json': '{"name":"a"}' }, /--from p\.json: command/],
    ['an env value that is not text', { 'p.json': '{"name":"a","command":"b","env":{"K":1}}' }, /env\.K/],
  ])('%s is a usage error naming the file and the problem', (_name, files, message) => {
    expect(() => loadProfileFile('p.json', read(files))).toThrow(message);
  });
});

describe('envPairs', () => {
  test('KEY=VALUE, the value may hold =', () => {
    expect(envPairs(['A=1', 'JSON={"methodId":"api-key"}'])).toEqual({ A: '1', JSON: '{"methodId":"api-key"}' });
  });

  test.each([['NOVALUE'], ['=x']])('%s is refused', (pair) => {
    expect(() => envPairs([pair])).toThrow(/--env wants KEY=VALUE/);
  });
});
