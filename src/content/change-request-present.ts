import type { Urls } from '../core/urls.js';
import { presentUser, type EmailVisibility } from '../users/users.js';
import type { ChangeRequest } from './change-request-schemas.js';
import { type ChangeRequestFields } from './change-request-queries.js';

/** Stands in for an author whose account is gone. */
const GONE_USER = { id: 'deleted', displayName: 'Deleted user', email: '', photoUrl: null };

export function presentChangeRequest(row: ChangeRequestFields, urls: Urls, emails: EmailVisibility): ChangeRequest {
  const author = row.author_id
    ? {
        id: row.author_id,
        displayName: row.author_display_name ?? '',
        email: row.author_email ?? '',
        photoUrl: row.author_photo_url,
      }
    : GONE_USER;
  const body: ChangeRequest = {
    object: 'change-request',
    id: row.id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    createdBy: presentUser(author, urls, emails),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    space: row.space_id,
    revision: row.revision_id,
    revisionInitial: row.revision_initial_id,
    comments: row.comments_count,
    // Behind the space once the space has a revision the change request's base is older than. Exact
    // because every writer of the space's line (a merge, an import) adds seq + 1 under the space's
    // row lock, and an update sets the base to the head's seq; a merged one has nothing to catch up.
    outdated: row.status !== 'merged' && (row.base_seq ?? row.seq) < row.head_seq,
    urls: {
      app: urls.app('o', row.organization_id, 's', row.space_id, 'change-requests', String(row.number)),
      location: urls.api('spaces', row.space_id, 'change-requests', row.id),
    },
  };
  if (row.revision_merged_id) body.revisionMerged = row.revision_merged_id;
  if (row.description_document !== null) body.description = row.description_document;
  return body;
}
