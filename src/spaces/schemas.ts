import { Type, type Static } from '@sinclair/typebox';
import { Emoji, StringEnum } from '../core/schemas.js';
import { EDIT_MODES, SpaceTitle, VISIBILITIES } from './space-schemas.js';
import { DefaultLevelSchema } from '../access/schemas.js';
import { MergeRulesSpaceSchema } from '../orgs/merge-rules.js';

export const CreateSpaceBody = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Emoji),
    parent: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Id of a parent collection' })),
    editMode: Type.Optional(StringEnum(EDIT_MODES)),
    visibility: Type.Optional(StringEnum(VISIBILITIES)),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'User guide', emoji: '1f4d8', parent: 'c4Lm9QzR2xTb7NvK1wYe', visibility: 'in-collection' }],
  },
);
export type CreateSpaceBody = Static<typeof CreateSpaceBody>;

export const UpdateSpaceBody = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Type.Union([Emoji, Type.Null()])),
    editMode: Type.Optional(StringEnum(EDIT_MODES)),
    defaultLevel: Type.Optional(DefaultLevelSchema),
    visibility: Type.Optional(StringEnum(VISIBILITIES)),
    mergeRules: Type.Optional(MergeRulesSpaceSchema),
  },
  { additionalProperties: false, examples: [{ title: 'User guide (v2)', editMode: 'live', visibility: 'public' }] },
);
export type UpdateSpaceBody = Static<typeof UpdateSpaceBody>;
