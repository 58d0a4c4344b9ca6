import type { Role } from '../db/types.js';
import type { Urls } from '../core/urls.js';
import type { MemberFields } from '../model/people/member-queries.js';
import { presentMember } from '../model/people/members.js';
import type { Team } from '../model/people/schemas.js';
import type { TeamRow } from '../model/people/team-queries.js';
import { presentTeam } from '../model/people/teams.js';
import type { MemberTeamRow } from './queries.js';
import type { MemberTeam, TeamMembership } from './schemas.js';

/** Whether the caller may manage the team's members: admins of the organization and owners of the team may. */
export function managesTeam(team: Pick<TeamRow, 'caller_is_owner'>, callerRole: Role): boolean {
  return callerRole === 'admin' || team.caller_is_owner;
}

/** A team as a caller with `callerRole` in its organization sees it. */
export function presentTeamFor(team: TeamRow, callerRole: Role): Team {
  return presentTeam(team, { view: true, admin: managesTeam(team, callerRole) });
}

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
