import type { Urls } from '../core/urls.js';
import { everyEmailShown, presentUser } from '../users/users.js';
import type { Member } from './member-schemas.js';
import { type MemberFields } from './member-queries.js';

/** A member record, e-mail included: callers make sure only members of its organization see one. */
export function presentMember(row: MemberFields, urls: Urls): Member {
  const member: Member = {
    object: 'member',
    id: row.user_id,
    role: row.role,
    user: presentUser(
      { id: row.user_id, email: row.email, displayName: row.display_name, photoUrl: row.photo_url },
      urls,
      everyEmailShown,
    ),
    disabled: row.disabled,
    joinedAt: row.joined_at.toISOString(),
    sso: row.sso,
    spaces: Number(row.spaces_count),
    teams: Number(row.teams_count),
    sites: Number(row.sites_count),
  };
  if (row.last_seen_at) member.lastSeenAt = row.last_seen_at.toISOString();
  return member;
}
