import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DbOrTx } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { Database, DefaultLevel, Role } from '../db/types.js';
import { ForbiddenError, NotFoundError } from './errors.js';
import { strongestRole } from './roles.js';

/**
 * Deepest chain of parent collections walked. Moves and creations keep trees
 * far shallower; the bound only stops a walk that a corrupted tree could loop.
 */
const MAX_WALK = 100;

/** What a user is to an organization: undefined when not an active member, role null for a guest. */
export async function findMembership(db: DbOrTx, organizationId: string, userId: string): Promise<{ role: Role | null } | undefined> {
  return (await membership(db, organizationId, userId))[0];
}

/** The caller's role in the organization (null for a guest); 404 when they are not a member. */
export async function organizationRole(db: DbOrTx, organizationId: string, userId: string): Promise<Role | null> {
  const found = await findMembership(db, organizationId, userId);
  if (!found) throw new NotFoundError('No organization with this id is visible to you');
  return found.role;
}

/** The caller's role, refusing guests (403): they do not see the organization's rosters of members and teams. */
export async function requireRosterAccess(db: DbOrTx, organizationId: string, userId: string): Promise<Role> {
  const role = await organizationRole(db, organizationId, userId);
  if (role === null) throw new ForbiddenError('Guests cannot list the members or teams of the organization');
  return role;
}

/** 404 for non-members, 403 for members who are not admins; `action` names what they tried. */
export async function requireOrganizationAdmin(db: DbOrTx, organizationId: string, userId: string, action: string): Promise<void> {
  if ((await organizationRole(db, organizationId, userId)) !== 'admin') {
    throw new ForbiddenError(`${action} needs the admin role in the organization`);
  }
}

const membership = precompiled((db, organizationId: string, userId: string) =>
  db
    .selectFrom('organization_members')
    .select('role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('disabled', '=', false),
);

/**
 * The role a member gets on content from the organization and from the
 * default levels along its chain of collections: the strongest of them.
 * Guests (role null) get nothing from default levels, only from what is
 * shared with them.
 */
export function effectiveRole(memberRole: Role | null | undefined, chainLevels: readonly DefaultLevel[]): Role | null {
  if (memberRole == null) return null;
  const levels = chainLevels.filter((level): level is Role => level !== null && level !== 'inherit');
  return strongestRole(memberRole, ...levels);
}

/** The default levels of the collections `collectionIds` and all their ancestors, keyed by the starting collection. */
export async function chainLevels(db: DbOrTx, collectionIds: readonly string[]): Promise<Map<string, DefaultLevel[]>> {
  const levels = new Map<string, DefaultLevel[]>(collectionIds.map((id) => [id, []]));
  if (collectionIds.length === 0) return levels;
  const rows = await walkUp(db as Kysely<Database>, sql<string[]>`${sql.val(collectionIds)}::text[]`)
    .selectFrom('chain')
    .select(['start_id', 'default_level'])
    .execute();
  for (const row of rows) levels.get(row.start_id)?.push(row.default_level);
  return levels;
}

/** The collection and all its ancestors' ids. */
export async function collectionAndAncestors(db: DbOrTx, collectionId: string): Promise<string[]> {
  const rows = await walkUp(db as Kysely<Database>, sql<string[]>`array[${collectionId}]::text[]`)
    .selectFrom('chain')
    .select('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * A recursive walk from each of `startIds` (a text[] expression) up to its
 * root: the CTE `chain` holds one row per (start, ancestor-or-self).
 */
export function walkUp(db: Kysely<Database>, startIds: RawBuilder<string[]>) {
  return db.withRecursive('chain(start_id, id, parent_id, default_level, depth)', (qb) =>
    qb
      .selectFrom('collections')
      .select(['id as start_id', 'id', 'parent_id', 'default_level', sql<number>`0`.as('depth')])
      .where('id', '=', sql<string>`any(${startIds})`)
      .unionAll(
        qb
          .selectFrom('collections as c')
          .innerJoin('chain', 'chain.parent_id', 'c.id')
          .select(['chain.start_id', 'c.id', 'c.parent_id', 'c.default_level', sql<number>`chain.depth + 1`.as('depth')])
          .where('chain.depth', '<', MAX_WALK),
      ),
  );
}
