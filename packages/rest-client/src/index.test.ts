import { createRestClient, errorOf } from './index';

describe('errorOf', () => {
  test('the error envelope of a refusal, nothing for any other body', () => {
    const error = { code: 'not_found', message: 'task t1 not found', request_id: 'r1' };
    expect(errorOf({ error })).toEqual(error);
    expect(errorOf({ error: { code: 'not_found' } })).toBeUndefined();
    expect(errorOf('Bad Gateway')).toBeUndefined();
    expect(errorOf(null)).toBeUndefined();
    expect(errorOf({ status: 'ready' })).toBeUndefined();
  });
});

describe('createRestClient', () => {
  test('fills the documented path, sends the given headers, returns data or the parsed refusal', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const answers = [
      new Response(JSON.stringify({ id: 't 1', title: 'x' }), { status: 200 }),
      new Response(JSON.stringify({ error: { code: 'not_found', message: 'no', request_id: 'r' } }), { status: 404 }),
    ];
    const client = createRestClient('http://backend.test', {
      headers: { authorization: 'Bearer k' },
      fetch: (request: Request) => {
        seen.push({ url: request.url, auth: request.headers.get('authorization') });
        const next = answers.shift();
        if (next === undefined) throw new Error('unexpected request');
        return Promise.resolve(next);
      },
    });
    const found = await client.GET('/api/tasks/{id}', { params: { path: { id: 't 1' } } });
    expect(found.data).toMatchObject({ id: 't 1' });
    const missing = await client.GET('/api/tasks/{id}', { params: { path: { id: 'nope' } } });
    expect(missing.data).toBeUndefined();
    expect(errorOf(missing.error)?.code).toBe('not_found');
    expect(seen).toEqual([
      { url: 'http://backend.test/api/tasks/t%201', auth: 'Bearer k' },
      { url: 'http://backend.test/api/tasks/nope', auth: 'Bearer k' },
    ]);
  });
});
