import type { Urls } from '../core/urls.js';
import { presentUser, type EmailVisibility } from '../users/users.js';
import type { ReviewFields } from './queries.js';
import type { ChangeRequestReview, ReviewComment } from './schemas.js';

/** A review as the spec's ChangeRequestReview, with its comment where it was posted with one and still exists. */
export function presentReview(
  row: ReviewFields,
  comment: ReviewComment | undefined,
  urls: Urls,
  emails: EmailVisibility,
): ChangeRequestReview {
  const review: ChangeRequestReview = {
    object: 'change-request-review',
    id: row.id,
    revision: row.revision_id,
    reviewer: presentUser(
      {
        id: row.reviewer_id,
        displayName: row.reviewer_display_name,
        email: row.reviewer_email,
        photoUrl: row.reviewer_photo_url,
      },
      urls,
      emails,
    ),
    status: row.status,
    outdated: row.outdated,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    urls: {
      location: urls.api('spaces', row.space_id, 'change-requests', row.change_request_id, 'reviews', row.id),
    },
  };
  if (row.requester_id) {
    review.requestedBy = presentUser(
      {
        id: row.requester_id,
        displayName: row.requester_display_name ?? '',
        email: row.requester_email ?? '',
        photoUrl: row.requester_photo_url,
      },
      urls,
      emails,
    );
  }
  if (comment) review.comment = comment;
  return review;
}
