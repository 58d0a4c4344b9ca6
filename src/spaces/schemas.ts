import { Type, type Static } from '@sinclair/typebox';
import { DateTime, StringEnum, Emoji } from '../core/schemas.js';
import { DefaultLevelSchema } from '../model/access/schemas.js';

export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export const EDIT_MODES = ['live', 'locked'] as const;

export const SpaceTitle = Type.String({ maxLength: 50, description: 'Title of the space' });

export const SpaceSchema = Type.Object(
  {
    object: Type.Literal('space'),
    id: Type.String(),
    title: Type.String(),
    emoji: Type.String({ description: 'The space’s emoji; empty when it has none' }),
    visibility: StringEnum(VISIBILITIES),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: Type.Optional(DateTime),
    editMode: StringEnum(EDIT_MODES),
    mergeRules: Type.Object({ type: Type.Literal('inherit') }),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      published: Type.Optional(Type.String({ format: 'uri' })),
      public: Type.Optional(Type.String({ format: 'uri' })),
    }),
    organization: Type.String(),
    parent: Type.Optional(Type.String()),
    revision: Type.String({ description: 'Id of the active revision' }),
    defaultLevel: DefaultLevelSchema,
    comments: Type.Integer({ description: 'Open comments' }),
    changeRequests: Type.Integer(),
    changeRequestsOpen: Type.Integer(),
    changeRequestsDraft: Type.Integer(),
    permissions: Type.Object({
      view: Type.Boolean(),
      access: Type.Boolean(),
      admin: Type.Boolean(),
      viewInviteLinks: Type.Boolean(),
      edit: Type.Boolean(),
      triggerGitSync: Type.Boolean(),
      comment: Type.Boolean(),
      merge: Type.Boolean(),
      review: Type.Boolean(),
      installIntegration: Type.Boolean(),
    }),
  },
  { $id: 'Space' },
);
export type Space = Static<typeof SpaceSchema>;

export const CreateSpaceBody = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Emoji),
    parent: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Id of a parent collection' })),
    editMode: Type.Optional(StringEnum(EDIT_MODES)),
    visibility: Type.Optional(StringEnum(VISIBILITIES)),
  },
  { additionalProperties: false },
);
export type CreateSpaceBody = Static<typeof CreateSpaceBody>;

export const UpdateSpaceBody = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Type.Union([Emoji, Type.Null()])),
    editMode: Type.Optional(StringEnum(EDIT_MODES)),
    defaultLevel: Type.Optional(DefaultLevelSchema),
    visibility: Type.Optional(StringEnum(VISIBILITIES)),
  },
  { additionalProperties: false },
);
export type UpdateSpaceBody = Static<typeof UpdateSpaceBody>;
