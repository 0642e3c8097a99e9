// The route rights table and the OpenAPI document list the same routes: a documented route without a
// rule would be refused to every token, a rule without a route is dead. Each rule's scope names only
// parameters its path has, and the open routes are exactly the ones served before the token check.
import { ROUTE_GROUPS, ROUTE_RIGHTS, routeParams } from '@kandev/backend/testing';

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const documented = ROUTE_GROUPS.flatMap((group) => group.routes);

describe('route rights table', () => {
  test('has exactly one rule for every route in the OpenAPI document', () => {
    const rules = ROUTE_RIGHTS.map((rule) => key(rule.method, rule.path));
    expect(rules.length).toBe(new Set(rules).size);
    const docs = documented.map((route) => key(route.method, route.path));
    expect(docs.filter((route) => !rules.includes(route))).toEqual([]);
    expect(rules.filter((rule) => !docs.includes(rule))).toEqual([]);
  });

  test('open rules are the routes outside /api and /metrics, and only those', () => {
    const open = ROUTE_RIGHTS.filter((rule) => rule.right === 'open').map((rule) => key(rule.method, rule.path));
    const unguarded = documented
      .filter((route) => !route.path.startsWith('/api/') && route.path !== '/metrics')
      .map((route) => key(route.method, route.path));
    expect(open.sort()).toEqual(unguarded.sort());
  });

  test('a scope read from the path names one of its parameters', () => {
    const wrong = ROUTE_RIGHTS.flatMap((rule) =>
      typeof rule.scope === 'string'
        ? []
        : rule.scope
            .filter((source) => source.in === 'path' && !routeParams(rule.path).includes(source.name))
            .map((source) => `${key(rule.method, rule.path)}: ${source.name}`),
    );
    expect(wrong).toEqual([]);
  });
});
