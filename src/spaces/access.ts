import { timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../db/database.js';
import type { DefaultLevel, Role } from '../db/types.js';
import { chainLevels, effectiveRole } from '../core/access.js';
import { roleAtLeast } from '../core/roles.js';
import type { SpaceFields, SpaceWithAccess } from './queries.js';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The caller's role on a space: as a member, the strongest of their
 * organization role and the default levels of the space and its collections;
 * otherwise `read` where the visibility opens the space to them.
 */
export function spaceRole(space: SpaceWithAccess, shareKey: string | undefined): Role | null {
  const asMember = space.is_member ? effectiveRole(space.member_role, [space.default_level, ...(space.chain_levels ?? [])]) : null;
  if (roleAtLeast(asMember, 'read')) return asMember;
  if (space.visibility === 'public' || space.visibility === 'unlisted') return 'read';
  if (space.visibility === 'share-link' && shareKey !== undefined && sameSecret(shareKey, space.share_key)) return 'read';
  return null;
}

/**
 * For a page of spaces, a function giving each one's default levels: its own,
 * then its collections' up to the root, read in one query for the whole page.
 */
export async function defaultLevelChains(db: DbOrTx, spaces: readonly SpaceFields[]): Promise<(space: SpaceFields) => DefaultLevel[]> {
  const parents = [...new Set(spaces.flatMap((space) => (space.parent_id ? [space.parent_id] : [])))];
  const levels = await chainLevels(db, parents);
  return (space) => [space.default_level, ...(space.parent_id ? (levels.get(space.parent_id) ?? []) : [])];
}
