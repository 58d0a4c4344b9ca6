import { Type, type Static } from '@sinclair/typebox';
import { DateTime, ref, StringEnum, UserSchema } from '../core/schemas.js';
import { NullableRoleSchema } from '../access/schemas.js';

export const MemberSchema = Type.Object(
  {
    object: Type.Literal('member'),
    id: Type.String({ description: 'Id of the member’s user' }),
    role: NullableRoleSchema,
    user: ref(UserSchema),
    disabled: Type.Boolean(),
    joinedAt: DateTime,
    lastSeenAt: Type.Optional(DateTime),
    sso: Type.Boolean({ description: 'Whether the member signs in with SSO' }),
    spaces: Type.Integer({ description: 'Spaces the member can reach' }),
    teams: Type.Integer({ description: 'Teams the member is in' }),
    sites: Type.Integer({ description: 'Sites the member can read: all of the organization’s, for a role' }),
  },
  { $id: 'Member' },
);
export type Member = Static<typeof MemberSchema>;

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
