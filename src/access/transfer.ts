import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { findMembership } from './membership.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';

/**
 * Checks that content of `fromOrganizationId` may go to `toOrganizationId`:
 * the caller is an admin of the organization it leaves (a grant on one space
 * or collection, a guest's included, gives no right to take it out of its
 * organization), and of another organization it goes to.
 */
export async function checkTransferTarget(
  db: Db,
  fromOrganizationId: string,
  toOrganizationId: string,
  userId: string,
): Promise<void> {
  const source = await findMembership(db, fromOrganizationId, userId);
  if (source?.role !== 'admin') {
    throw new ForbiddenError('Transferring out of an organization needs the admin role in it');
  }
  if (toOrganizationId === fromOrganizationId) throw new ConflictError('It is already in this organization');
  const membership = await findMembership(db, toOrganizationId, userId);
  if (!membership) throw new NotFoundError(`No organization "${toOrganizationId}" is visible to you`);
  if (membership.role !== 'admin')
    throw new ForbiddenError('Transferring needs the admin role in the target organization');
}

/**
 * Drops, before content moves to `toOrganizationId`, the grants on it that
 * cannot follow: every team's (teams stay in their organization) and those
 * of people who are not members there. For a collection, the grants on
 * everything inside it go the same way. Run in the transfer's transaction.
 */
export async function dropGrantsThatStay(
  tx: Db,
  target: { spaceId: string } | { collectionId: string },
  toOrganizationId: string,
): Promise<void> {
  const onTarget =
    'spaceId' in target
      ? sql<boolean>`g.space_id = ${target.spaceId}`
      : sql<boolean>`(g.collection_id = any(${subtree(target.collectionId)})
          or g.space_id in (select s.id from spaces s where s.parent_id = any(${subtree(target.collectionId)})))`;
  await tx
    .deleteFrom('content_grants as g')
    .where(onTarget)
    .where(
      sql<boolean>`(g.team_id is not null or g.user_id not in (
        select m.user_id from organization_members m where m.organization_id = ${toOrganizationId}))`,
    )
    .execute();
}

/** The collection and every collection inside it (SQL array). */
function subtree(collectionId: string) {
  return sql<string[]>`array(
    with recursive down(id, depth) as (
      select ${collectionId}::text, 0
      union
      select c.id, down.depth + 1 from collections c join down on c.parent_id = down.id where down.depth < 100
    )
    select id from down)`;
}
