import type { Role } from '../db/types.js';
import type { Team } from '../members/member-schemas.js';
import type { TeamRow } from './team-queries.js';

export interface TeamFields {
  id: string;
  title: string;
  created_at: Date;
  members_count: number | string;
  spaces_count: number;
}

/** A team as a caller sees it: `spaces` counts the live spaces its grants reach. */
export function presentTeam(row: TeamFields, permissions: Team['permissions']): Team {
  return {
    object: 'team',
    id: row.id,
    title: row.title,
    members: Number(row.members_count),
    spaces: row.spaces_count,
    createdAt: row.created_at.toISOString(),
    permissions,
  };
}

/** Whether the caller may manage the team's members: admins of the organization and owners of the team may. */
export function managesTeam(team: Pick<TeamRow, 'caller_is_owner'>, callerRole: Role): boolean {
  return callerRole === 'admin' || team.caller_is_owner;
}

/** A team as a caller with `callerRole` in its organization sees it. */
export function presentTeamFor(team: TeamRow, callerRole: Role): Team {
  return presentTeam(team, { view: true, admin: managesTeam(team, callerRole) });
}
