import { Type, type Static } from '@sinclair/typebox';
import { DateTime, StringEnum } from '../core/schemas.js';

export const TEAM_ROLES = ['owner', 'member'] as const;

export const TeamSchema = Type.Object(
  {
    object: Type.Literal('team'),
    id: Type.String(),
    title: Type.String({ minLength: 1, maxLength: 64 }),
    members: Type.Integer({ description: 'Members in the team' }),
    spaces: Type.Integer({ description: 'Spaces the team has been given access to' }),
    createdAt: DateTime,
    permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() }),
  },
  { $id: 'Team' },
);
export type Team = Static<typeof TeamSchema>;

export const TeamMemberRoleSchema = StringEnum(TEAM_ROLES);
