import { Type, type Static } from '@sinclair/typebox';
import { TeamMemberRoleSchema } from '../model/people/schemas.js';

export const TeamTitle = Type.String({ minLength: 1, maxLength: 64, description: 'Title of the team' });
const UserRef = Type.String({ minLength: 1, maxLength: 254, description: 'A user id or e-mail' });

export const TeamParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 128 }), teamId: Type.String({ minLength: 1, maxLength: 128 }) });
export const TeamMemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  teamId: Type.String({ minLength: 1, maxLength: 128 }),
  userId: Type.String({ minLength: 1, maxLength: 128 }),
});

export const CreateTeamBody = Type.Object(
  { title: TeamTitle, members: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000, description: 'Ids of members to put in the team' })) },
  { additionalProperties: false },
);
export const RenameTeamBody = Type.Object({ title: TeamTitle }, { additionalProperties: false });

/** Adds, removes and sets roles; a user in both `add` and `remove` ends up removed. */
export const UpdateTeamMembersBody = Type.Object(
  {
    add: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
    remove: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
    memberships: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.Object({ role: TeamMemberRoleSchema }, { additionalProperties: false }), {
        maxProperties: 1000,
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateTeamMembersBody = Static<typeof UpdateTeamMembersBody>;

export const SetTeamMemberBody = Type.Object({ role: Type.Optional(TeamMemberRoleSchema) }, { additionalProperties: false });
