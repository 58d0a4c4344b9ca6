import { Type, type Static } from '@sinclair/typebox';
import { IdParam, ListQuery } from '../core/schemas.js';
import { NullableRoleSchema } from '../access/schemas.js';

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
