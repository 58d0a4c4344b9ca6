import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, Nullable, ref, UserSchema } from '../core/schemas.js';
import { NullableRoleSchema } from '../access/schemas.js';
import { CreatedApiTokenSchema } from '../users/api-token-schemas.js';

/** How long an invitation by e-mail can be accepted; inviting the address again renews it. */
export const INVITATION_DAYS = 14;

/** The one-time secret of an invitation, as the accept link carries it. */
const Secret = Type.String({ minLength: 20, maxLength: 200, description: 'The secret the accept link carries' });

/** An invitation as the organization's admins see it: never its secret. */
export const EmailInvitationSchema = Type.Object(
  {
    object: Type.Literal('email-invite'),
    id: Type.String(),
    email: Type.String(),
    role: NullableRoleSchema,
    sso: Type.Boolean(),
    invitedBy: Nullable(Type.String({ description: 'The id of the admin who invited, while they exist' })),
    createdAt: DateTime,
    expiresAt: DateTime,
  },
  { $id: 'EmailInvitation', title: 'EmailInvitation', description: 'A pending invitation by e-mail' },
);
export type EmailInvitation = Static<typeof EmailInvitationSchema>;

/** One accept link, shown to the inviting admin when no mail goes out, so that they can hand it over. */
export const AcceptLinkSchema = Type.Object({
  email: Type.String(),
  invitation: Type.String({ description: 'The invitation’s id' }),
  url: Type.String({ format: 'uri', description: 'The accept link: it holds the one-time secret' }),
  expiresAt: DateTime,
});
export type AcceptLink = Static<typeof AcceptLinkSchema>;

/** An invitation as the holder of its accept link sees it: what accepting gives, no secret. */
export const InvitationViewSchema = Type.Object(
  {
    object: Type.Literal('email-invite'),
    id: Type.String(),
    email: Type.String({ description: 'The address invited: only its owner may accept' }),
    organization: Type.Object({ id: Type.String(), title: Type.String() }),
    role: NullableRoleSchema,
    invitedBy: Nullable(Type.String({ description: 'The inviting admin’s display name, while they exist' })),
    expiresAt: DateTime,
    existingAccount: Type.Boolean({
      description: 'Whether an account has this address: then accepting needs that account’s own token',
    }),
  },
  { title: 'EmailInvitationView' },
);
export type InvitationView = Static<typeof InvitationViewSchema>;

export const InvitationParams = Type.Object({ organizationId: IdParam, invitationId: IdParam });
export const InvitationSecretQuery = Type.Object({ secret: Secret }, { additionalProperties: false });

export const AcceptInvitationBody = Type.Object(
  {
    secret: Secret,
    displayName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'The new account’s name, when none has the address; default: the part before the @',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ secret: 'the secret of the accept link', displayName: 'Ada' }] },
);
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;

export const AcceptedInvitationSchema = Type.Object(
  {
    object: Type.Literal('membership'),
    organization: Type.String({ description: 'The organization joined' }),
    role: NullableRoleSchema,
    user: ref(UserSchema),
    token: Type.Optional(
      Type.Object(CreatedApiTokenSchema.properties, {
        description: 'The new account’s first token, its own, shown only this once; absent for an existing account',
      }),
    ),
  },
  { title: 'AcceptedInvitation' },
);
export type AcceptedInvitation = Static<typeof AcceptedInvitationSchema>;

export const ListEmailInvitationsQuery = Type.Object(ListQuery);
export type ListEmailInvitationsQuery = Static<typeof ListEmailInvitationsQuery>;

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
