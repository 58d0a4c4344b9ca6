import type { Role } from '../db/types.js';
import { roleAtLeast } from '../access/roles.js';
import type { Urls } from '../core/urls.js';
import type { Space } from './space-schemas.js';
import { type SpaceFields } from '../access/space-queries.js';

export function spacePermissions(role: Role | null, editMode: 'live' | 'locked'): Space['permissions'] {
  const live = editMode === 'live';
  return {
    view: roleAtLeast(role, 'read'),
    access: roleAtLeast(role, 'read'),
    admin: role === 'admin',
    viewInviteLinks: role === 'admin',
    // A locked space takes no edits from anyone until it is set back to live.
    edit: live && roleAtLeast(role, 'edit'),
    triggerGitSync: live && roleAtLeast(role, 'edit'),
    comment: roleAtLeast(role, 'comment'),
    merge: live && roleAtLeast(role, 'edit'),
    review: roleAtLeast(role, 'review'),
    installIntegration: role === 'admin',
  };
}

/**
 * A space as a caller with `role` sees it. The published URL of a share-link
 * space carries its secret, so it is shown only to admins and to callers who
 * came with the key.
 */
export function presentSpace(
  row: SpaceFields,
  role: Role | null,
  urls: Urls,
  options: { hasShareKey?: boolean } = {},
): Space {
  const space: Space = {
    object: 'space',
    id: row.id,
    title: row.title,
    emoji: row.emoji ?? '',
    visibility: row.visibility,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    editMode: row.edit_mode,
    mergeRules: row.merge_rules,
    urls: { location: urls.api('spaces', row.id), app: urls.app('o', row.organization_id, 's', row.id) },
    organization: row.organization_id,
    revision: row.revision_id,
    defaultLevel: row.default_level,
    comments: row.comments_open_count,
    changeRequests: row.change_requests_count,
    changeRequestsOpen: row.change_requests_open_count,
    changeRequestsDraft: row.change_requests_draft_count,
    permissions: spacePermissions(role, row.edit_mode),
  };
  if (row.parent_id) space.parent = row.parent_id;
  if (row.deleted_at) space.deletedAt = row.deleted_at.toISOString();
  if (row.visibility === 'share-link') {
    if (role === 'admin' || options.hasShareKey)
      space.urls.published = `${urls.published(row.id)}?share=${encodeURIComponent(row.share_key)}`;
  } else if (row.visibility !== 'private') {
    space.urls.published = urls.published(row.id);
  }
  if (row.visibility === 'public') space.urls.public = urls.published(row.id);
  return space;
}
