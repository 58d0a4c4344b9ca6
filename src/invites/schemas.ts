import { Type, type Static } from '@sinclair/typebox';
import { IdParam, ListQuery } from '../core/schemas.js';
import { NullableRoleSchema } from '../model/access/schemas.js';
import { AcceptLinkSchema } from '../invitations/schemas.js';

/**
 * An address with a dot inside its domain. The domain is read up to its first
 * dot after the first character, so no two quantifiers compete for the same
 * characters (`[^\s@]+\.[^\s@]+` backtracked quadratically).
 */
const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@][^\\s@.]*\\.[^\\s@]+$' });

export const InviteUsersBody = Type.Object(
  {
    emails: Type.Array(
      Type.Union([Email, Type.Object({ email: Email, role: NullableRoleSchema }, { additionalProperties: false })]),
      {
        minItems: 1,
        maxItems: 100,
      },
    ),
    role: Type.Optional(NullableRoleSchema),
    sso: Type.Optional(Type.Boolean({ description: 'Invite them as SSO members' })),
  },
  {
    additionalProperties: false,
    examples: [{ emails: ['ada@acme.example', { email: 'grace@acme.example', role: 'admin' }], role: 'edit' }],
  },
);
export type InviteUsersBody = Static<typeof InviteUsersBody>;

export const InviteUsersResponse = Type.Object({
  users: Type.Array(Type.String(), {
    description: 'Ids of the users added to the organization: none, since each joins when they accept',
  }),
  invited: Type.Integer({ description: 'How many invitations were made or renewed' }),
  acceptLinks: Type.Optional(
    Type.Array(AcceptLinkSchema, {
      description: 'Without SMTP only: the accept links, shown this once to the inviting admin to hand over',
    }),
  ),
});
export type InviteUsersResponse = Static<typeof InviteUsersResponse>;

export const InviteLinkSchema = Type.Object(
  {
    object: Type.Literal('invite'),
    id: Type.String({ description: 'The invite’s id, which is also its secret' }),
    role: NullableRoleSchema,
    redundant: Type.Boolean({ description: 'Whether the caller already has what the invite gives' }),
  },
  { $id: 'InviteLink' },
);
export type InviteLink = Static<typeof InviteLinkSchema>;

/**
 * An invite to the organization with a `role`. The spec's invites to one space
 * or collection (`space`/`collection` with `level`) are named so they can be
 * refused clearly: they need per-content grants, which do not exist yet.
 */
export const CreateInviteLinkBody = Type.Object(
  {
    role: Type.Optional(NullableRoleSchema),
    space: Type.Optional(Type.String({ maxLength: 128 })),
    collection: Type.Optional(Type.String({ maxLength: 128 })),
    level: Type.Optional(NullableRoleSchema),
  },
  { additionalProperties: false, examples: [{ role: 'read' }] },
);
export type CreateInviteLinkBody = Static<typeof CreateInviteLinkBody>;

export const UpdateInviteLinkBody = Type.Object(
  { role: NullableRoleSchema },
  { additionalProperties: false, examples: [{ role: 'comment' }] },
);
export type UpdateInviteLinkBody = Static<typeof UpdateInviteLinkBody>;

export const ListInvitesQuery = Type.Object(ListQuery);
export type ListInvitesQuery = Static<typeof ListInvitesQuery>;

/** What joining with an invite answers: nothing more to say. */
export const JoinResponse = Type.Object({});

export const InviteParams = Type.Object({ organizationId: IdParam, inviteId: IdParam });
