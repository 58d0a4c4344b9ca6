import type { Role } from '../db/types.js';
import { roleAtLeast } from '../access/roles.js';
import type { InviteFields } from './queries.js';
import type { InviteLink } from './schemas.js';

/**
 * An invite link as the caller sees it: redundant to a caller who already has
 * at least its role. `membership` is the caller's in the organization, if any.
 */
export function presentInvite(invite: InviteFields, membership: { role: Role | null } | undefined): InviteLink {
  const redundant =
    membership !== undefined &&
    (membership.role === invite.role || (invite.role !== null && roleAtLeast(membership.role, invite.role)));
  return { object: 'invite', id: invite.id, role: invite.role, redundant };
}

/** An invite link as an admin sees it: an invite never gives them more. */
export function presentInviteToAdmin(invite: InviteFields): InviteLink {
  return { object: 'invite', id: invite.id, role: invite.role, redundant: true };
}
