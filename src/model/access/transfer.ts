import type { Db } from '../../db/database.js';
import { findMembership } from './membership.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';

/**
 * Checks that content of `fromOrganizationId` may go to `toOrganizationId`:
 * another organization, where the caller is an admin.
 */
export async function checkTransferTarget(
  db: Db,
  fromOrganizationId: string,
  toOrganizationId: string,
  userId: string,
): Promise<void> {
  if (toOrganizationId === fromOrganizationId) throw new ConflictError('It is already in this organization');
  const membership = await findMembership(db, toOrganizationId, userId);
  if (!membership) throw new NotFoundError(`No organization "${toOrganizationId}" is visible to you`);
  if (membership.role !== 'admin')
    throw new ForbiddenError('Transferring needs the admin role in the target organization');
}
