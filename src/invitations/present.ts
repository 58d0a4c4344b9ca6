import type { Role } from '../db/types.js';
import type { EmailInvitation, InvitationView } from './schemas.js';

export interface InvitationRow {
  id: string;
  email: string;
  role: Role | null;
  sso: boolean;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
}

/** An invitation as the organization's admins list it. */
export function presentInvitation(row: InvitationRow): EmailInvitation {
  return {
    object: 'email-invite',
    id: row.id,
    email: row.email,
    role: row.role,
    sso: row.sso,
    invitedBy: row.invited_by,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

/** An invitation as the holder of its link sees it. */
export function presentInvitationView(row: {
  id: string;
  organization_id: string;
  organization_title: string;
  email: string;
  role: Role | null;
  inviter_name: string | null;
  expires_at: Date;
  owner_id: string | null;
}): InvitationView {
  return {
    object: 'email-invite',
    id: row.id,
    email: row.email,
    organization: { id: row.organization_id, title: row.organization_title },
    role: row.role,
    invitedBy: row.inviter_name,
    expiresAt: row.expires_at.toISOString(),
    existingAccount: row.owner_id !== null,
  };
}
