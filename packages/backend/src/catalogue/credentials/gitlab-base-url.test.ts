import fc from 'fast-check';
import { checkGitlabBaseUrl, type GitlabHostPolicy } from './gitlab-base-url';

const POLICY: GitlabHostPolicy = { hosts: ['git.corp.example'], insecureHosts: ['127.0.0.1', 'gitlab.lab', '[::1]'] };
const NONE: GitlabHostPolicy = { hosts: [], insecureHosts: [] };

describe('checkGitlabBaseUrl', () => {
  test.each([
    ['https://gitlab.com', NONE],
    ['https://GitLab.com/', NONE],
    ['https://gitlab.com:443/sub/path', NONE],
    ['https://git.corp.example', POLICY],
    ['https://git.corp.example:8443/gitlab', POLICY],
    ['http://127.0.0.1:4567/prefix', POLICY],
    ['http://gitlab.lab', POLICY],
    ['https://gitlab.lab', POLICY],
    ['http://[::1]:80', POLICY],
  ])('%s is allowed', (url, policy) => {
    expect(checkGitlabBaseUrl(url, policy)).toEqual({ ok: true });
  });

  test.each([
    ['http://127.0.0.1:1/anything', NONE, /http is allowed only for hosts in KANDEV_GITLAB_INSECURE_HOSTS/],
    ['http://gitlab.com', NONE, /must be https/],
    ['http://git.corp.example', POLICY, /KANDEV_GITLAB_INSECURE_HOSTS/],
    ['https://evil.example', POLICY, /evil.example is not gitlab.com or a host in KANDEV_GITLAB_HOSTS/],
    ['https://gitlab.com.evil.example', NONE, /not gitlab.com/],
    ['https://evilgitlab.com', NONE, /not gitlab.com/],
    ['https://169.254.169.254/latest', NONE, /not gitlab.com/],
    ['https://user:pw@gitlab.com', NONE, /credentials/],
    ['https://gitlab.com/?x=1', NONE, /query or fragment/],
    ['https://gitlab.com/#x', NONE, /query or fragment/],
    ['ftp://gitlab.com', NONE, /must be an https URL/],
    ['file:///etc/passwd', NONE, /must be an https URL/],
    ['not a url', NONE, /not a URL/],
  ])('%s is refused', (url, policy, reason) => {
    const verdict = checkGitlabBaseUrl(url, policy);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
  const hostArb = fc.oneof(
    fc.constantFrom('gitlab.com', '127.0.0.1', 'localhost', 'git.corp.example'),
    fc.tuple(label, label).map(([a, b]) => `${a}.${b}`),
  );
  const policyArb = fc.record({
    hosts: fc.array(hostArb, { maxLength: 3 }),
    insecureHosts: fc.array(hostArb, { maxLength: 3 }),
  });

  test('allowed exactly when https on gitlab.com or a listed host, or http on an insecure host', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https'),
        hostArb,
        fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
        fc.constantFrom('', '/', '/gitlab'),
        policyArb,
        (scheme, host, port, path, policy) => {
          const url = `${scheme}://${host}${port === undefined ? '' : `:${port}`}${path}`;
          const insecure = policy.insecureHosts.includes(host);
          const secure = host === 'gitlab.com' || policy.hosts.includes(host) || insecure;
          const expected = scheme === 'https' ? secure : insecure;
          expect(checkGitlabBaseUrl(url, policy).ok).toBe(expected);
        },
      ),
    );
  });
});
