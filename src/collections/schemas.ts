import { Type, type Static } from '@sinclair/typebox';
import { NullableString } from '../core/schemas.js';
import { DefaultLevelSchema } from '../access/schemas.js';

export const CollectionTitle = Type.String({ maxLength: 50, description: 'Title of the collection' });
export const CollectionDescription = Type.String({ maxLength: 100, description: 'Description of the collection' });

export const CollectionSchema = Type.Object(
  {
    object: Type.Literal('collection'),
    id: Type.String(),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    organization: Type.String({ description: 'Id of the owning organization' }),
    parent: Type.Optional(Type.String({ description: 'Id of the parent collection' })),
    defaultLevel: DefaultLevelSchema,
    urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }) }),
    permissions: Type.Object({
      view: Type.Boolean(),
      admin: Type.Boolean(),
      viewInviteLinks: Type.Boolean(),
      create: Type.Boolean(),
    }),
  },
  { $id: 'Collection' },
);
export type Collection = Static<typeof CollectionSchema>;

export const CreateCollectionBody = Type.Object(
  {
    title: Type.Optional(CollectionTitle),
    parent: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Id of a parent collection' })),
  },
  { additionalProperties: false, examples: [{ title: 'Product', parent: 'c4Lm9QzR2xTb7NvK1wYe' }] },
);
export type CreateCollectionBody = Static<typeof CreateCollectionBody>;

export const UpdateCollectionBody = Type.Object(
  {
    title: Type.Optional(CollectionTitle),
    description: Type.Optional(NullableString({ maxLength: 100 })),
    defaultLevel: Type.Optional(DefaultLevelSchema),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Product guides', description: 'Everything customers read', defaultLevel: 'read' }],
  },
);
export type UpdateCollectionBody = Static<typeof UpdateCollectionBody>;

export const ListCollectionsQuery = {
  nested: Type.Optional(
    Type.Boolean({ default: true, description: 'List nested collections too; false lists top-level ones only' }),
  ),
};
