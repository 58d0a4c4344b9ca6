import type { Urls } from '../core/urls.js';
import { presentUser, type EmailVisibility } from '../users/users.js';
import type { ReviewerFields } from './queries.js';
import type { ChangeRequestRequestedReviewer } from './schemas.js';

/** Stands in for a requester whose account is gone (the spec requires `requestedBy`), as for change request authors. */
const GONE_USER = { id: 'deleted', displayName: 'Deleted user', email: '', photoUrl: null };

/** A review request of a user (`kind: user`) or of a team (`kind: team`), as the spec shapes them. */
export function presentReviewer(
  row: ReviewerFields,
  urls: Urls,
  emails: EmailVisibility,
): ChangeRequestRequestedReviewer {
  const requester = row.requester_id
    ? {
        id: row.requester_id,
        displayName: row.requester_display_name ?? '',
        email: row.requester_email ?? '',
        photoUrl: row.requester_photo_url,
      }
    : GONE_USER;
  const request = {
    object: 'change-request-requested-reviewer' as const,
    revision: row.revision_id,
    requestedBy: presentUser(requester, urls, emails),
    createdAt: row.created_at.toISOString(),
  };
  if (row.team_id !== null) {
    return { ...request, kind: 'team', team: { object: 'team', id: row.team_id, title: row.team_title ?? '' } };
  }
  return {
    ...request,
    kind: 'user',
    user: presentUser(
      { id: row.reviewer_id, displayName: row.display_name ?? '', email: row.email ?? '', photoUrl: row.photo_url },
      urls,
      emails,
    ),
  };
}
