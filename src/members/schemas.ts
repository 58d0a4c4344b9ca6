import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '../core/roles.js';
import { DateTime, IdParam, ListQuery, NullableRoleSchema, ref, StringEnum, UserSchema } from '../core/schemas.js';

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
  },
  { $id: 'Member' },
);
export type Member = Static<typeof MemberSchema>;

export const MemberParams = Type.Object({ organizationId: IdParam, userId: IdParam });

export const ListMembersQuery = Type.Object({
  ...ListQuery,
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
  role: Type.Optional(StringEnum([...ROLES, 'guest'] as const, { description: 'Only members with this role; `guest` for those without one' })),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of a display name or e-mail, any case' })),
  sort: Type.Optional(StringEnum(['joinedAt', 'lastSeenAt'] as const, { default: 'joinedAt', description: '`lastSeenAt` lists only members seen at least once' })),
});

export const UpdateMemberBody = Type.Object({ role: Type.Optional(NullableRoleSchema) }, { additionalProperties: false });

export const PingResponse = Type.Object({
  serviceVisitorClaims: Type.String({ description: 'A signed JWT of the member’s claims, to attach to the user' }),
});
