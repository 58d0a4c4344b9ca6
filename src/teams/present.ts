import type { Role } from '../db/types.js';
import type { Urls } from '../core/urls.js';
import type { MemberFields } from '../members/member-queries.js';
import { presentMember } from '../members/members.js';
import { presentTeamFor } from './teams.js';
import type { MemberTeamRow } from './queries.js';
import type { MemberTeam, TeamMembership } from './schemas.js';

export function presentTeamMembership(
  member: MemberFields,
  teamRole: TeamMembership['team']['role'],
  urls: Urls,
): TeamMembership {
  return { organization: presentMember(member, urls), team: { role: teamRole }, permissions: { view: true } };
}

export function presentMemberTeam(row: MemberTeamRow, callerRole: Role): MemberTeam {
  return { team: presentTeamFor(row, callerRole), member: { role: row.member_role } };
}
