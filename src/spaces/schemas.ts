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
    template: Type.Optional(
      Type.Object(
        {
          id: Type.String({
            minLength: 1,
            maxLength: 64,
            description: 'A built-in template: see applyTemplateToSpace',
          }),
          params: Type.Optional(
            Type.Object(
              {
                contentRefs: Type.Optional(
                  Type.Record(
                    Type.String({ maxLength: 64 }),
                    Type.Object(
                      { kind: Type.String({ minLength: 1, maxLength: 32 }) },
                      { additionalProperties: Type.String({ maxLength: 2048 }) },
                    ),
                    { maxProperties: 20 },
                  ),
                ),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false, description: 'Start the space with the pages of a built-in template' },
      ),
    ),
    empty: Type.Optional(
      Type.Literal(true, { description: 'Start the space with no page (what a space without a template gets)' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { title: 'User guide', emoji: '1f4d8', parent: 'c4Lm9QzR2xTb7NvK1wYe', visibility: 'in-collection' },
      { title: 'API', template: { id: 'api-docs' } },
    ],
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
