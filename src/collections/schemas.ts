import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '../core/roles.js';
import { IdParam, NullableString, NullableStringEnum } from '../core/schemas.js';

export const DEFAULT_LEVELS = [...ROLES, 'inherit'] as const;
/** A role, `inherit` (the parent's), or null (nothing beyond the organization role). */
export const DefaultLevelSchema = NullableStringEnum(DEFAULT_LEVELS, { description: 'Default level for the content' });

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

export const CollectionParams = Type.Object({ collectionId: IdParam });
export const OrganizationParams = Type.Object({ organizationId: IdParam });

export const CreateCollectionBody = Type.Object(
  {
    title: Type.Optional(CollectionTitle),
    parent: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Id of a parent collection' })),
  },
  { additionalProperties: false },
);

export const UpdateCollectionBody = Type.Object(
  {
    title: Type.Optional(CollectionTitle),
    description: Type.Optional(NullableString({ maxLength: 100 })),
    defaultLevel: Type.Optional(DefaultLevelSchema),
  },
  { additionalProperties: false },
);
export type UpdateCollectionBody = Static<typeof UpdateCollectionBody>;

export const ListCollectionsQuery = {
  nested: Type.Optional(Type.Boolean({ default: true, description: 'List nested collections too; false lists top-level ones only' })),
};

const Pointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('collection'), collection: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false }),
]);

/** Where to move a space or collection: another parent (null: the top level) and a place among its new siblings. */
export const MoveBody = Type.Object(
  {
    parent: Type.Optional(NullableString({ minLength: 1, maxLength: 128, description: 'Id of the new parent collection; null for the top level' })),
    position: Type.Optional(
      Type.Object(
        { before: Type.Optional(Pointer), after: Type.Optional(Pointer) },
        { additionalProperties: false, description: 'Put the item before and/or after siblings; by default it goes last' },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type MoveBody = Static<typeof MoveBody>;

export const TransferBody = Type.Object(
  { organization: Type.String({ minLength: 1, maxLength: 128, description: 'Id of the organization to move it to' }) },
  { additionalProperties: false },
);
