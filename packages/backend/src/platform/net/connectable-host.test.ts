import { connectableHost } from './connectable-host';

test.each([
  ['127.0.0.1', '127.0.0.1'],
  ['0.0.0.0', '127.0.0.1'],
  ['localhost', 'localhost'],
  ['::', '[::1]'],
  ['::1', '[::1]'],
  ['[::1]', '[::1]'],
])('connectableHost(%j) -> %j', (bind, expected) => {
  expect(connectableHost(bind)).toBe(expected);
});
