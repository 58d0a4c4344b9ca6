import type { Role } from '../db/types.js';

export type { Role };

/** Weakest to strongest, as docs/permissions.md orders them. */
export const ROLES: readonly Role[] = ['read', 'comment', 'review', 'edit', 'create', 'admin'];

const RANK: Record<Role, number> = { read: 1, comment: 2, review: 3, edit: 4, create: 5, admin: 6 };

/** A role's rank: 1 for read … 6 for admin, the position in ROLES counted from 1. */
export function rankOf(role: Role): number {
  return RANK[role];
}

/** The role of a rank. */
export function roleOfRank(rank: number): Role {
  return ROLES[rank - 1]!;
}

/** True when `role` grants at least what `minimum` grants; a missing role grants nothing. */
export function roleAtLeast(role: Role | null | undefined, minimum: Role): boolean {
  return role != null && RANK[role] >= RANK[minimum];
}

/** The strongest of several roles, ignoring missing ones. */
export function strongestRole(...roles: Array<Role | null | undefined>): Role | null {
  let best: Role | null = null;
  for (const role of roles) {
    if (role != null && (best === null || RANK[role] > RANK[best])) best = role;
  }
  return best;
}
