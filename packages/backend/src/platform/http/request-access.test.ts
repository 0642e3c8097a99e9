import fc from 'fast-check';
import {
  allowedHostsFor,
  announcesBody,
  canonicalHostName,
  canonicalOrigin,
  isAllowedOrigin,
  judgeRequest,
  LOOPBACK_ACCESS,
  parseAuthority,
  type RequestAccess,
  type RequestFacts,
} from './request-access';

const PORT = 7420;
const ACCESS: RequestAccess = {
  allowedHosts: allowedHostsFor('127.0.0.1', ['kandev.internal']),
  allowedOrigins: ['https://ui.example.com'],
};

function facts(patch: Partial<RequestFacts> = {}): RequestFacts {
  return {
    method: 'POST',
    path: '/api/workspaces',
    host: `127.0.0.1:${PORT}`,
    origin: undefined,
    contentType: 'application/json',
    contentLength: '12',
    transferEncoding: undefined,
    localPort: PORT,
    ...patch,
  };
}

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const foreignName = fc
  .tuple(label, fc.constantFrom('example', 'attacker', 'evil', 'corp'), fc.constantFrom('com', 'net', 'io'))
  .map(([a, b, c]) => `${a}.${b}.${c}`);
const portSuffix = fc
  .option(fc.integer({ min: 1, max: 65535 }), { nil: undefined })
  .map((p) => (p === undefined ? '' : `:${p}`));
const hostCase = (name: string) => fc.constantFrom(name, name.toUpperCase());

describe('the Host rule', () => {
  test('loopback names and the allowed extras are accepted with or without a port, in any case', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'kandev.internal').chain(hostCase),
        portSuffix,
        (name, port) => {
          expect(judgeRequest(facts({ host: `${name}${port}` }), ACCESS)).toBeUndefined();
        },
      ),
    );
  });

  test('any other name is refused with 403, whatever the port', () => {
    fc.assert(
      fc.property(foreignName, portSuffix, (name, port) => {
        expect(judgeRequest(facts({ host: `${name}${port}` }), ACCESS)).toMatchObject({
          status: 403,
          code: 'permission_denied',
          message: expect.stringContaining(name) as string,
        });
      }),
    );
  });

  test.each([undefined, '', 'a b', 'evil.example/x', 'user@127.0.0.1', '127.0.0.1:99999', '[::1', 'localhost.'])(
    'missing, malformed or look-alike Host %p -> 403',
    (host) => {
      expect(judgeRequest(facts({ host }), ACCESS)?.status).toBe(403);
    },
  );

  test('canonical forms: IPv4 and IPv6 literals compare as WHATWG URL writes them', () => {
    expect(parseAuthority('[0:0:0:0:0:0:0:1]:80')).toEqual({ hostname: '[::1]', host: '[::1]' });
    expect(parseAuthority('LocalHost:7420')).toEqual({ hostname: 'localhost', host: 'localhost:7420' });
    expect(canonicalHostName('::1')).toBe('[::1]');
    expect(canonicalHostName('Kandev.Internal')).toBe('kandev.internal');
    expect(canonicalHostName('host:80')).toBeUndefined();
    expect(canonicalHostName('a/b')).toBeUndefined();
  });

  test('the listen host joins the loopback names unless it is a wildcard', () => {
    expect(allowedHostsFor('0.0.0.0', [])).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostsFor('::', [])).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostsFor('10.0.0.5', ['a.example'])).toEqual([
      'localhost',
      '127.0.0.1',
      '[::1]',
      '10.0.0.5',
      'a.example',
    ]);
  });
});

describe('the Origin rule', () => {
  const host = (value: string) => {
    const authority = parseAuthority(value);
    if (authority === undefined) throw new Error(`bad host ${value}`);
    return authority;
  };

  test('no Origin (curl, SDKs, same-origin GETs) is fine', () => {
    expect(judgeRequest(facts({ origin: undefined }), ACCESS)).toBeUndefined();
  });

  test("the backend's own origin: the Host asked, or an allowed host on the port the request arrived on", () => {
    expect(isAllowedOrigin(`http://127.0.0.1:${PORT}`, host(`127.0.0.1:${PORT}`), PORT, ACCESS)).toBe(true);
    expect(isAllowedOrigin(`http://localhost:${PORT}`, host(`127.0.0.1:${PORT}`), PORT, ACCESS)).toBe(true);
    // Published on another port (docker -p 8000:7420): the browser's origin is the Host it asked.
    expect(isAllowedOrigin('http://127.0.0.1:8000', host('127.0.0.1:8000'), PORT, ACCESS)).toBe(true);
    expect(isAllowedOrigin('https://ui.example.com', host(`127.0.0.1:${PORT}`), PORT, ACCESS)).toBe(true);
  });

  test('another port on the same machine, another scheme, null and foreign origins are refused', () => {
    const ours = host(`127.0.0.1:${PORT}`);
    for (const origin of [
      'http://127.0.0.1:8080',
      'http://localhost',
      `https://127.0.0.1:${PORT}`,
      'null',
      'file://',
    ]) {
      expect({ origin, allowed: isAllowedOrigin(origin, ours, PORT, ACCESS) }).toEqual({ origin, allowed: false });
    }
  });

  test('any foreign origin is refused with 403 even on an allowed Host', () => {
    fc.assert(
      fc.property(foreignName, fc.constantFrom('http', 'https'), portSuffix, (name, scheme, port) => {
        const refusal = judgeRequest(facts({ origin: `${scheme}://${name}${port}` }), ACCESS);
        expect(refusal).toMatchObject({ status: 403, code: 'permission_denied' });
      }),
    );
  });

  test('configured origins are canonical: default port dropped, lowercase, no path', () => {
    expect(canonicalOrigin('HTTPS://UI.Example.com:443/')).toBe('https://ui.example.com');
    expect(canonicalOrigin('http://a.example:8080')).toBe('http://a.example:8080');
    for (const bad of [
      'ui.example.com',
      'ftp://a.example',
      'http://a.example/app',
      'http://u@a.example',
      '*',
      'null',
    ]) {
      expect({ bad, origin: canonicalOrigin(bad) }).toEqual({ bad, origin: undefined });
    }
  });
});

describe('the media type rule', () => {
  test('a body must be application/json (parameters and case do not matter)', () => {
    for (const contentType of ['application/json', 'Application/JSON; charset=utf-8']) {
      expect(judgeRequest(facts({ contentType }), ACCESS)).toBeUndefined();
    }
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      expect(judgeRequest(facts({ contentType }), ACCESS)).toMatchObject({
        status: 415,
        code: 'unsupported_media_type',
      });
    }
    expect(
      judgeRequest(facts({ contentType: 'text/plain', contentLength: undefined, transferEncoding: 'chunked' }), ACCESS)
        ?.status,
    ).toBe(415);
  });

  test('a bodiless request needs no content type', () => {
    expect(judgeRequest(facts({ contentType: 'text/plain', contentLength: '0' }), ACCESS)).toBeUndefined();
    expect(judgeRequest(facts({ contentType: undefined, contentLength: undefined }), ACCESS)).toBeUndefined();
    expect(announcesBody('0', undefined)).toBe(false);
    expect(announcesBody('1', undefined)).toBe(true);
    expect(announcesBody(undefined, 'chunked')).toBe(true);
  });

  test('Host is judged before Origin, Origin before the media type', () => {
    const all = facts({ host: 'evil.example', origin: 'http://evil.example', contentType: 'text/plain' });
    expect(judgeRequest(all, ACCESS)?.message).toMatch(/Host/);
    expect(judgeRequest({ ...all, host: '127.0.0.1' }, ACCESS)?.message).toMatch(/Origin/);
  });
});

describe('probes', () => {
  test('GET /healthz and /readyz answer any Host and Origin; other methods and paths do not', () => {
    const foreign = { host: 'evil.example', origin: 'http://evil.example' };
    expect(judgeRequest(facts({ ...foreign, method: 'GET', path: '/healthz' }), LOOPBACK_ACCESS)).toBeUndefined();
    expect(judgeRequest(facts({ ...foreign, method: 'HEAD', path: '/readyz' }), LOOPBACK_ACCESS)).toBeUndefined();
    expect(judgeRequest(facts({ ...foreign, method: 'POST', path: '/healthz' }), LOOPBACK_ACCESS)?.status).toBe(403);
    expect(judgeRequest(facts({ ...foreign, method: 'GET', path: '/api/tasks' }), LOOPBACK_ACCESS)?.status).toBe(403);
  });
});
