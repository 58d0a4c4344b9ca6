import { Type, type Static } from '@sinclair/typebox';
import { IdParam, ListQuery, ref, UserSchema } from '../core/schemas.js';
import { NullableRoleSchema, RoleSchema } from '../access/schemas.js';
import { TeamSchema } from '../members/member-schemas.js';

/** How many users or teams one invitation names at most. */
export const MAX_INVITED = 100;

const Ids = (what: string) =>
  Type.Array(IdParam, {
    minItems: 1,
    maxItems: MAX_INVITED,
    uniqueItems: true,
    description: `Ids of the ${what} to give the role to`,
  });

export const InviteBody = Type.Object(
  {
    role: NullableRoleSchema,
    users: Type.Optional(Ids('members of the organization (guests included)')),
    teams: Type.Optional(Ids('teams of the organization')),
  },
  {
    additionalProperties: false,
    examples: [{ role: 'edit', users: ['u7Kq2mXr9TzL0pBv4aHc'], teams: ['t3Wn8DfY5sQp2LmR7vXb'] }],
    description:
      'Gives `role` on the space or collection to each user and team, replacing a role given before; `role: null` takes the given roles away. At least one of `users` and `teams`.',
  },
);
export type InviteBody = Static<typeof InviteBody>;

export const UpdateGrantBody = Type.Object(
  { role: NullableRoleSchema },
  { additionalProperties: false, description: 'The new role; null takes it away', examples: [{ role: 'review' }] },
);
export type UpdateGrantBody = Static<typeof UpdateGrantBody>;

export const SpaceUserParams = Type.Object({ spaceId: IdParam, userId: IdParam });
export const SpaceTeamParams = Type.Object({ spaceId: IdParam, teamId: IdParam });
export const CollectionUserParams = Type.Object({ collectionId: IdParam, userId: IdParam });
export const CollectionTeamParams = Type.Object({ collectionId: IdParam, teamId: IdParam });

export const ListGrantsQuery = Type.Object(ListQuery);
export type ListGrantsQuery = Static<typeof ListGrantsQuery>;
export const ListReachQuery = Type.Object({
  ...ListQuery,
  role: Type.Optional(RoleSchema),
});
export type ListReachQuery = Static<typeof ListReachQuery>;

export const UserPermissionSchema = Type.Object({ permission: RoleSchema, user: ref(UserSchema) });
export type UserPermission = Static<typeof UserPermissionSchema>;

export const TeamPermissionSchema = Type.Object({ permission: RoleSchema, team: ref(TeamSchema) });
export type TeamPermission = Static<typeof TeamPermissionSchema>;

const Where = {
  space: Type.Optional(Type.String({ description: 'The space it is set or given on' })),
  collection: Type.Optional(Type.String({ description: 'The collection it is set or given on' })),
};

/** One reason a user reaches the content, with the role it gives. */
export const ReachReasonSchema = Type.Union([
  Type.Object({ kind: Type.Literal('organization'), role: RoleSchema }),
  Type.Object({ kind: Type.Literal('default-level'), role: RoleSchema, ...Where }),
  Type.Object({ kind: Type.Literal('user'), role: RoleSchema, ...Where }),
  Type.Object({ kind: Type.Literal('team'), role: RoleSchema, team: Type.String(), ...Where }),
]);
export type ReachReason = Static<typeof ReachReasonSchema>;

export const ReachingUserSchema = Type.Object({
  permission: RoleSchema,
  user: ref(UserSchema),
  via: Type.Array(ReachReasonSchema, {
    description:
      'Why: the organization role, default levels of the content and the collections above it, and grants to the user or their teams there',
  }),
});
export type ReachingUser = Static<typeof ReachingUserSchema>;
