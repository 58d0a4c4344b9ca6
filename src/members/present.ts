import type { Role } from '../db/types.js';

/** What a member's visitor claims say of them: the organization, their role in it and their e-mail. */
export interface VisitorClaims {
  organization: string;
  role: Role | null;
  email: string;
}

export function visitorClaims(organizationId: string, role: Role | null, email: string): VisitorClaims {
  return { organization: organizationId, role, email };
}
