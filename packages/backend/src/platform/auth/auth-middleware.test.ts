import { isSameOrigin } from './auth-middleware';

describe('same origin for cookie-authenticated changes', () => {
  test.each([
    ['http://127.0.0.1:7420', '127.0.0.1:7420', true],
    ['https://kandev.example', 'kandev.example', true],
    ['http://localhost:7420', 'localhost:7420', true],
    ['http://localhost:7420', '127.0.0.1:7420', false],
    ['http://127.0.0.1:3000', '127.0.0.1:7420', false],
    ['null', '127.0.0.1:7420', false],
    ['file:///x', '127.0.0.1:7420', false],
  ])('Origin %s, Host %s: %s', (origin, host, expected) => {
    expect(isSameOrigin(origin, host)).toBe(expected);
  });

  test('no Origin or no Host is not same-origin', () => {
    expect(isSameOrigin(undefined, '127.0.0.1:7420')).toBe(false);
    expect(isSameOrigin('http://127.0.0.1:7420', undefined)).toBe(false);
  });
});
