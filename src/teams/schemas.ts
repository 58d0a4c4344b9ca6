import { Type, type Static } from '@sinclair/typebox';
import { IdParam, ListQuery, ref } from '../core/schemas.js';
import { MemberSchema, TeamMemberRoleSchema, TeamSchema } from '../members/member-schemas.js';

export const TeamTitle = Type.String({ minLength: 1, maxLength: 64, description: 'Title of the team' });
const UserRef = Type.String({ minLength: 1, maxLength: 254, description: 'A user id or e-mail' });
const TitleFilter = Type.String({ minLength: 1, maxLength: 64, description: 'Part of the title, any case' });

export const TeamParams = Type.Object({ organizationId: IdParam, teamId: IdParam });
export const TeamMemberParams = Type.Object({ organizationId: IdParam, teamId: IdParam, userId: IdParam });

export const ListTeamsQuery = Type.Object({
  ...ListQuery,
  owner: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'Only the teams this member can manage' }),
  ),
  title: Type.Optional(TitleFilter),
});
export type ListTeamsQuery = Static<typeof ListTeamsQuery>;

export const ListTeamMembersQuery = Type.Object(ListQuery);
export type ListTeamMembersQuery = Static<typeof ListTeamMembersQuery>;

export const ListMemberTeamsQuery = Type.Object({ ...ListQuery, title: Type.Optional(TitleFilter) });
export type ListMemberTeamsQuery = Static<typeof ListMemberTeamsQuery>;

/** A member of a team: their member record, their role in the team, and what the caller may do with them. */
export const TeamMembershipSchema = Type.Object({
  organization: ref(MemberSchema),
  team: Type.Object({ role: TeamMemberRoleSchema }),
  permissions: Type.Object({ view: Type.Boolean() }),
});
export type TeamMembership = Static<typeof TeamMembershipSchema>;

/** A team a member is in, with the member's role in it. */
export const MemberTeamSchema = Type.Object({
  team: ref(TeamSchema),
  member: Type.Object({ role: TeamMemberRoleSchema }),
});
export type MemberTeam = Static<typeof MemberTeamSchema>;

export const CreateTeamBody = Type.Object(
  {
    title: TeamTitle,
    members: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
        maxItems: 1000,
        description: 'Ids of members to put in the team',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ title: 'Writers', members: ['u7Kq2mXr9TzL0pBv4aHc'] }] },
);
export type CreateTeamBody = Static<typeof CreateTeamBody>;

export const RenameTeamBody = Type.Object(
  { title: TeamTitle },
  { additionalProperties: false, examples: [{ title: 'Technical writers' }] },
);
export type RenameTeamBody = Static<typeof RenameTeamBody>;

/** Adds, removes and sets roles; a user in both `add` and `remove` ends up removed. */
export const UpdateTeamMembersBody = Type.Object(
  {
    add: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
    remove: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
    memberships: Type.Optional(
      Type.Record(
        Type.String({ minLength: 1, maxLength: 128 }),
        Type.Object({ role: TeamMemberRoleSchema }, { additionalProperties: false }),
        { maxProperties: 1000 },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        add: ['ada@acme.example'],
        remove: ['u7Kq2mXr9TzL0pBv4aHc'],
        memberships: { 'grace@acme.example': { role: 'owner' } },
      },
    ],
  },
);
export type UpdateTeamMembersBody = Static<typeof UpdateTeamMembersBody>;

export const SetTeamMemberBody = Type.Object(
  { role: Type.Optional(TeamMemberRoleSchema) },
  { additionalProperties: false, examples: [{ role: 'owner' }] },
);
export type SetTeamMemberBody = Static<typeof SetTeamMemberBody>;
