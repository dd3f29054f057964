/**
 * Member roles, strongest first. GitBook's spec leaves the rank of `edit` against
 * `review` open; Vellum ranks `edit` above `review` because an editor can change
 * content directly while a reviewer only approves others' changes.
 */
export const ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];
/** `null` is a guest: a member without an organization-wide role. */
export type RoleOrGuest = Role | null;

const RANK: Record<Role, number> = { admin: 6, create: 5, edit: 4, review: 3, comment: 2, read: 1 };

export function roleRank(role: RoleOrGuest): number {
  return role === null ? 0 : RANK[role];
}

/** True when `role` grants at least what `needed` grants. */
export function roleAtLeast(role: RoleOrGuest, needed: Role): boolean {
  return roleRank(role) >= RANK[needed];
}

/** Default access on content: a role, `inherit` from the container, or null (grants only). */
export type DefaultLevel = Role | 'inherit' | null;

export function maxRole(a: RoleOrGuest, b: RoleOrGuest): RoleOrGuest {
  return roleRank(a) >= roleRank(b) ? a : b;
}

export function minRole(a: RoleOrGuest, b: RoleOrGuest): RoleOrGuest {
  return roleRank(a) <= roleRank(b) ? a : b;
}
