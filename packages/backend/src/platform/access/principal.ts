import type { Response } from 'express';
import { z } from 'zod';

// Who a request acts as: the token it was authenticated with, that token's role and the workspaces it
// is limited to. The auth middleware puts it on the request; the route policy (route-policy.ts) and
// whatever records an actor read it from there.

/** Roles, least first: each holds every right of the ones before it. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = z.enum(ROLES);

/** What a route needs: `read` (viewer), `operate` (operator), `admin`. */
export const RIGHTS = ['read', 'operate', 'admin'] as const;
export type Right = (typeof RIGHTS)[number];

/** The least role holding each right. */
export const RIGHT_ROLE: Record<Right, Role> = { read: 'viewer', operate: 'operator', admin: 'admin' };

export interface Principal {
  /** The stored token's id; null for a token configured by the operator (KANDEV_API_TOKEN). */
  tokenId: string | null;
  name: string;
  role: Role;
  /** Workspace ids the token is limited to; null: every workspace. */
  workspaces: readonly string[] | null;
}

/** The configured token: the operator's own, with every right. */
export const CONFIGURED_PRINCIPAL: Principal = { tokenId: null, name: 'configured', role: 'admin', workspaces: null };

export function roleHolds(role: Role, right: Right): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(RIGHT_ROLE[right]);
}

/** True when `role` is `other` or above it. */
export function roleAtLeast(role: Role, other: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(other);
}

export function inScope(principal: Principal, workspaceId: string): boolean {
  return principal.workspaces === null || principal.workspaces.includes(workspaceId);
}

/** True when every workspace of `inner` (null: all) is within `outer`'s. */
export function scopeWithin(inner: readonly string[] | null, outer: readonly string[] | null): boolean {
  if (outer === null) return true;
  return inner !== null && inner.every((id) => outer.includes(id));
}

const PRINCIPAL = 'principal';

export function setPrincipal(res: Response, principal: Principal): void {
  res.locals[PRINCIPAL] = principal;
}

/** The principal the auth middleware authenticated (undefined on open routes and before auth). */
export function authenticatedPrincipal(res: Response): Principal | undefined {
  const value: unknown = res.locals[PRINCIPAL];
  return isPrincipal(value) ? value : undefined;
}

function isPrincipal(value: unknown): value is Principal {
  return typeof value === 'object' && value !== null && 'role' in value && 'workspaces' in value;
}

/** The workspaces a list shows this request: null for all (an unlimited token, or no token check). */
export function workspaceScope(res: Response): readonly string[] | null {
  return authenticatedPrincipal(res)?.workspaces ?? null;
}
