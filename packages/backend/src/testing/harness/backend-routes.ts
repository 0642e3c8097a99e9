import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RouteTemplate {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Express path with `:name` parameters, e.g. `/api/tasks/:id/mrs/:mrId/lifecycle`. */
  path: string;
}

const ROUTE_CALL = /router\.(get|post|put|patch|delete)\(\s*'([^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Every REST route the backend registers, read from its sources so a new route is fuzzed without
 * anyone listing it (and the suite fails loudly if the pattern ever stops matching).
 */
export function backendRoutes(): RouteTemplate[] {
  const routes = sourceFiles(join(__dirname, '../..')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(ROUTE_CALL)].map(
      ([, method, path]) => ({ method: method!.toUpperCase(), path: path! }) as RouteTemplate,
    ),
  );
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** The `:name` parameters of a route template, in order. */
export function routeParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => name!);
}

/** The template with each parameter replaced by its (already encoded) value. */
export function fillRoute(path: string, values: readonly string[]): string {
  let index = 0;
  return path.replace(/:([A-Za-z_]+)/g, () => values[index++] ?? '');
}
