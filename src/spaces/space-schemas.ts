/** The Space resource, as every domain that embeds a space (spaces, sites) presents it. */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, StringEnum } from '../core/schemas.js';
import { DefaultLevelSchema } from '../access/schemas.js';
import { MergeRulesSpaceSchema } from '../orgs/merge-rules.js';
import { GitSyncState } from './git-sync-state.js';

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
    mergeRules: MergeRulesSpaceSchema,
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
    gitSync: Type.Optional({
      ...GitSyncState,
      description: 'The Git Sync installation linking the space to a branch; shown to members of the space only',
    }),
  },
  { $id: 'Space' },
);
export type Space = Static<typeof SpaceSchema>;
