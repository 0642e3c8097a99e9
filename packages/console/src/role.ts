// The signed-in token's role (GET /api/me): the console hides what the role cannot do, so a viewer is
// not offered buttons the backend would refuse. The backend enforces; this only keeps the page honest.
// Elements marked `data-needs="operate"` or `data-needs="admin"` are hidden by styles.css under a
// `.shell[data-role]` that lacks the right; `may` is for what is disabled rather than hidden.

export type Role = 'viewer' | 'operator' | 'admin';
export type Need = 'operate' | 'admin';

let current: Role = 'admin';

export function setRole(role: Role): void {
  current = role;
}

export function may(need: Need): boolean {
  return need === 'operate' ? current !== 'viewer' : current === 'admin';
}
