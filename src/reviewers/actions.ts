import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { roleAtLeast } from '../access/roles.js';
import { findEditableSpace, findSpaceAsMember } from '../access/spaces.js';
import { changeRequestIn } from '../content/change-request-access.js';
import { lockSpaceThenChangeRequest } from '../content/write-locks.js';
import { lockChangeRequest, updateChangeRequestFields } from '../content/change-request-queries.js';
import type { Context } from '../context.js';
import { emailVisibilityFor } from '../users/user-queries.js';
import { presentReviewer } from './present.js';
import {
  addReviewers,
  countReviewers,
  findReviewers,
  isTeamMember,
  listReviewers,
  removeReviewer,
  type ReviewerFields,
} from './queries.js';
import { userRolesOnSpace } from '../access/grants.js';
import { lockMemberships } from '../members/member-queries.js';
import { lockTeams } from '../teams/team-queries.js';
import type { ListReviewersInput, RequestReviewersInput } from './schemas.js';

/**
 * Reviews are asked for on work under way: not once merged, and not while
 * archived (asking people to review work set aside would only mislead them).
 */
function requireRequestable(status: string): void {
  if (status === 'merged')
    throw new ConflictError('The change request is merged; reviews can no longer be requested on it');
  if (status === 'archived') {
    throw new ConflictError('The change request is archived; set its status to open or draft to request reviews');
  }
}

/** The users a page of reviewers shows: the ones asked and the ones who asked. */
function peopleOf(rows: readonly ReviewerFields[]): (string | null)[] {
  return rows.flatMap((row) => [row.user_id, row.requester_id]);
}

/** A page of the users and teams asked to review the change request, oldest request first. */
export async function listRequestedReviewers(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  query: ListReviewersInput,
) {
  const { space } = await findSpaceAsMember(context, spaceId, userId);
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  // Always oldest first: the spec offers no order for this list.
  const page = context.cursors.request(`reviewers:${changeRequest.id}`, { ...query, order: 'asc' });
  const rows = await paginate(context.cursors, page, {
    rows: () => listReviewers(context.db, page, space.organization_id, changeRequest.id),
    count: () => countReviewers(context.db, space.organization_id, changeRequest.id),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.reviewer_id }),
    toItem: (row) => row,
  });
  const emails = await emailVisibilityFor(context.db, userId, peopleOf(rows.items), space.organization_id);
  return { ...rows, items: rows.items.map((row) => presentReviewer(row, context.urls, emails)) };
}

/**
 * Asks users with at least the review role on the space, and teams of its
 * organization, to review the change request, and renames it if a subject is
 * given. All are recorded, or none.
 */
export async function requestReviewers(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  input: RequestReviewersInput,
) {
  const { users, subject } = input;
  const teams = input.teams ?? [];
  if (users.length === 0 && teams.length === 0) {
    throw new BadRequestError('body/users and body/teams are both empty: ask at least one user or team to review');
  }
  const { space } = await findEditableSpace(context, spaceId, userId, 'Requesting reviewers');
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  // Checked again under the lock; here too, so that a closed change request costs no transaction.
  requireRequestable(changeRequest.status);

  const rows = await context.db.transaction().execute(async (tx) => {
    // A key-share lock on the space is enough (the rows inserted below take one anyway) and leaves
    // other change requests of the space free.
    const { space: lockedSpace, changeRequest: locked } = await lockSpaceThenChangeRequest(
      tx,
      space.id,
      changeRequest.id,
      'key-share',
      ['organization_id'],
    );
    const organizationId = lockedSpace.organization_id;
    requireRequestable(locked.status);

    await lockMemberships(tx, organizationId, users);
    const roles = await userRolesOnSpace(tx, { ...space, organization_id: organizationId }, users);
    const refused = users.filter((user) => !roleAtLeast(roles.get(user) ?? null, 'review'));
    if (refused.length > 0) {
      throw new BadRequestError(
        `body/users names users who cannot review this change request: ${refused.join(', ')}; ` +
          'a reviewer must be an active member of the organization with at least the review role on the space',
      );
    }
    const found = await lockTeams(tx, organizationId, teams);
    const unknown = teams.filter((team) => !found.has(team));
    if (unknown.length > 0) {
      throw new BadRequestError(
        `body/teams names ids that are not teams of the space’s organization: ${unknown.join(', ')}`,
      );
    }

    const now = context.clock.now();
    if (subject !== undefined)
      await updateChangeRequestFields(tx, { organizationId, spaceId: space.id }, changeRequest.id, {
        subject,
        updatedAt: now,
      });
    const target = { organizationId, spaceId: space.id, changeRequestId: changeRequest.id };
    const request = { ...target, revisionId: locked.revision_id, requestedBy: userId, createdAt: now };
    await addReviewers(tx, request, { users, teams });
    return findReviewers(tx, organizationId, changeRequest.id, [...users, ...teams]);
  });

  const byReviewer = new Map(rows.map((row) => [row.reviewer_id, row]));
  const emails = await emailVisibilityFor(context.db, userId, peopleOf(rows), space.organization_id);
  return {
    users: [...users, ...teams].map((id) => presentReviewer(byReviewer.get(id)!, context.urls, emails)),
  };
}

/**
 * Whether the caller answers for the request of `reviewerId` without the
 * edit role: it is their own, or their team's (a member of a requested team
 * reviews for it, and so may step down for it).
 */
async function answersFor(context: Context, organizationId: string, reviewerId: string, userId: string) {
  return reviewerId === userId || isTeamMember(context.db, organizationId, reviewerId, userId);
}

/** Withdraws a review request: editors may withdraw any; a requested user their own, a team's member the team's. */
export async function removeRequestedReviewer(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  reviewerId: string,
): Promise<void> {
  const { space, role } = await findSpaceAsMember(context, spaceId, userId);
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  // Reading the space is enough to step down as one's own reviewer, or for one's team.
  if (!roleAtLeast(role, 'edit') && !(await answersFor(context, space.organization_id, reviewerId, userId))) {
    throw new ForbiddenError(
      'Removing a requested reviewer needs the edit role on the space; ' +
        'others may only remove themselves, or a team they are in',
    );
  }
  if (space.edit_mode === 'locked') {
    throw new ForbiddenError(
      'The space is locked: removing a requested reviewer is refused until it is set back to live',
    );
  }

  await context.db.transaction().execute(async (tx) => {
    // The change request alone: this writes nothing that references the space, and a merge
    // (space, then change request) holding the change request's lock is simply waited for.
    const locked = await lockChangeRequest(tx, changeRequest.id);
    // A merged change request keeps the record of who was asked to review it.
    if (locked.status === 'merged')
      throw new ConflictError('The change request is merged; its requested reviewers can no longer change');
    if (!(await removeReviewer(tx, space.organization_id, changeRequest.id, reviewerId))) {
      throw new NotFoundError('No review was requested from this user or team on the change request');
    }
  });
}
