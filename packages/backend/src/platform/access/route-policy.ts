import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@kandev/protocol';
import { authenticatedPrincipal, inScope, type Principal, RIGHT_ROLE, type Right, roleHolds } from './principal';
import { actingAs, tokenActor } from './actor';

// The one place a request's rights are checked: every route under the token (/api, /metrics) has a
// rule saying the right it needs and where its workspace is found; a request no rule matches is
// refused like an unknown route, so a route added without a rule serves nobody. Lists filter
// themselves (`workspaceScope`); everything else is decided here, before the handler runs.

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A place in the request that names a workspace, or a resource whose workspace is looked up. */
export interface ScopeSource {
  in: 'path' | 'query' | 'body';
  name: string;
  /** `workspace`: the value is a workspace id; anything else is a kind the lookup resolves. */
  kind: string;
}

export interface RouteRule {
  method: RouteMethod;
  /** As registered and documented, e.g. `/api/tasks/:id`. */
  path: string;
  /** `open`: served before the token check (never reaches this policy). */
  right: Right | 'open';
  /**
   * `none`: no workspace's data (the document, the caller itself, global configuration read);
   * `all`: spans every workspace (a token limited to some is refused); otherwise the sources naming
   * its workspace, each checked when present (a list filters what is left to the token's workspaces).
   */
  scope: 'none' | 'all' | readonly ScopeSource[];
}

/** The policy middleware (an interface, so the backend's inferred type names it). */
export interface RoutePolicy {
  (req: Request, res: Response, next: NextFunction): void;
}

/** The workspace of a resource (`kind`, `id`), or undefined when there is no such resource. */
export type WorkspaceLookup = (kind: string, id: string) => Promise<string | undefined>;

interface CompiledRule {
  rule: RouteRule;
  pattern: RegExp;
  params: string[];
}

function compile(rule: RouteRule): CompiledRule {
  const params: string[] = [];
  const source = rule.path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  // As Express matches: case-insensitive, an optional trailing slash.
  return { rule, params, pattern: new RegExp(`^${source}/?$`, 'i') };
}

/** The rule matching a method and path, and the path's parameters (decoded). */
export function matchRule(
  compiled: readonly CompiledRule[],
  method: string,
  path: string,
): { rule: RouteRule; params: Record<string, string> } | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const entry of compiled) {
    if (entry.rule.method !== wanted) continue;
    const match = entry.pattern.exec(path);
    if (match === null) continue;
    const params: Record<string, string> = {};
    entry.params.forEach((name, index) => {
      const raw = match[index + 1] ?? '';
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
      }
    });
    return { rule: entry.rule, params };
  }
  return undefined;
}

export function compileRules(rules: readonly RouteRule[]): CompiledRule[] {
  return rules.map(compile);
}

function valueAt(req: Request, params: Record<string, string>, source: ScopeSource): string | undefined {
  const from: unknown = source.in === 'path' ? params : source.in === 'query' ? req.query : (req.body as unknown);
  if (typeof from !== 'object' || from === null) return undefined;
  const value: unknown = (from as Record<string, unknown>)[source.name];
  // Trimmed as the routes' id schemas trim (IdSchema): the value checked is the value the route uses.
  return typeof value === 'string' ? value.trim() : undefined;
}

/** Why this principal may not use the rule's route with these values, or undefined when it may. */
async function refusal(
  principal: Principal,
  rule: RouteRule,
  values: { source: ScopeSource; value: string }[],
  lookup: WorkspaceLookup,
): Promise<AppError | undefined> {
  if (rule.right !== 'open' && !roleHolds(principal.role, rule.right)) {
    return new AppError(
      'permission_denied',
      `this token's role ${principal.role} cannot ${rule.method} ${rule.path} (needs ${RIGHT_ROLE[rule.right]})`,
    );
  }
  if (principal.workspaces === null || rule.scope === 'none') return undefined;
  if (rule.scope === 'all') {
    return new AppError(
      'permission_denied',
      `${rule.method} ${rule.path} spans every workspace: not in this token's workspaces`,
    );
  }
  for (const { source, value } of values) {
    if (source.kind === 'workspace') {
      // Refused whether or not it exists: the answer tells a limited token nothing about other workspaces.
      if (!inScope(principal, value))
        return new AppError('permission_denied', `workspace ${value} is not in this token's workspaces`);
      continue;
    }
    const workspace = await lookup(source.kind, value);
    // Another workspace's resource answers as a missing one would: its existence is not confirmed.
    if (workspace !== undefined && !inScope(principal, workspace)) {
      return new AppError('not_found', `${source.kind.replace('_', ' ')} ${value} not found`);
    }
  }
  return undefined;
}

/**
 * The policy middleware, mounted after the token check and the body parser on every route it guards.
 * A request without a principal (no auth configured: single-router tests) passes unchecked.
 */
export function createRoutePolicy(rules: readonly RouteRule[], lookup: WorkspaceLookup): RoutePolicy {
  const compiled = compileRules(rules);
  return (req: Request, res: Response, next: NextFunction): void => {
    const principal = authenticatedPrincipal(res);
    if (principal === undefined) return void next();
    const path = req.originalUrl.split('?')[0] ?? '';
    const matched = matchRule(compiled, req.method, path);
    if (matched === undefined) return void next(new AppError('not_found', `no route for ${req.method} ${path}`));
    const { rule, params } = matched;
    const values =
      rule.scope === 'none' || rule.scope === 'all'
        ? []
        : rule.scope.flatMap((source) => {
            const value = valueAt(req, params, source);
            return value === undefined ? [] : [{ source, value }];
          });
    refusal(principal, rule, values, lookup).then(
      // Admitted: what the request changes is recorded as this token's doing (the audit trail).
      (refused) => (refused === undefined ? actingAs(tokenActor(principal), () => next()) : next(refused)),
      (error: unknown) => next(error),
    );
  };
}
