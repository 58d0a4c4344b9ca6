import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '../access/roles.js';
import { ListQuery, StringEnum } from '../core/schemas.js';
import { NullableRoleSchema } from '../access/schemas.js';

export const ListMembersQuery = Type.Object({
  ...ListQuery,
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
  role: Type.Optional(
    StringEnum([...ROLES, 'guest'] as const, {
      description: 'Only members with this role; `guest` for those without one',
    }),
  ),
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Part of a display name or e-mail, any case' }),
  ),
  sort: Type.Optional(
    StringEnum(['joinedAt', 'lastSeenAt', 'name'] as const, {
      default: 'joinedAt',
      description: '`lastSeenAt` lists only members seen at least once; `name` orders by display name, any case',
    }),
  ),
});
export type ListMembersQuery = Static<typeof ListMembersQuery>;

export const UpdateMemberBody = Type.Object(
  { role: Type.Optional(NullableRoleSchema) },
  { additionalProperties: false, examples: [{ role: 'edit' }] },
);
export type UpdateMemberBody = Static<typeof UpdateMemberBody>;

export const PingResponse = Type.Object({
  serviceVisitorClaims: Type.String({ description: 'A signed JWT of the member’s claims, to attach to the user' }),
});
export type PingResponse = Static<typeof PingResponse>;
