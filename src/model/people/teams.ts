import type { Team } from './schemas.js';

export interface TeamFields {
  id: string;
  title: string;
  created_at: Date;
  members_count: number | string;
}

/**
 * A team as a caller sees it. Teams are given access to spaces one by one, and
 * no such grants exist yet, so a team reaches no space.
 */
export function presentTeam(row: TeamFields, permissions: Team['permissions']): Team {
  return {
    object: 'team',
    id: row.id,
    title: row.title,
    members: Number(row.members_count),
    spaces: 0,
    createdAt: row.created_at.toISOString(),
    permissions,
  };
}
