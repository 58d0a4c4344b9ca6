import { Type, type Static, type TSchema, type SchemaOptions, type StringOptions } from '@sinclair/typebox';

/** A string enum as JSON Schema `enum`, which gives clear errors and a plain OpenAPI type. */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A string enum that also accepts null. */
export function NullableStringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null], ...options });
}

/** A string with bounds that also accepts null. */
export function NullableString(options: StringOptions = {}) {
  return Type.Unsafe<string | null>({ ...Type.String(options), type: ['string', 'null'] });
}

/** A reference to a schema registered with `$id`, typed as the schema itself. */
export function ref<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id!));
}

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 date-time, UTC, with milliseconds' });
export const Url = Type.String({ format: 'uri', maxLength: 2048 });
/** A resource id in a path. Anything that is not an existing id is answered with 404, so only the length is bounded. */
export const IdParam = Type.String({ minLength: 1, maxLength: 128 });

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer({ description: 'The HTTP status code' }),
      message: Type.String({ description: 'What went wrong, in a sentence' }),
    }),
  },
  { $id: 'ErrorResponse', title: 'Error' },
);

/** Every route answers its errors with the one error body. */
export const errorResponses = {
  '4xx': ref(ErrorResponse),
  '5xx': ref(ErrorResponse),
};

export const UserSchema = Type.Object(
  {
    object: Type.Literal('user'),
    id: Type.String(),
    displayName: Type.String(),
    email: Type.Optional(Type.String()),
    photoURL: Type.Optional(Type.String()),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'User' },
);
export type User = Static<typeof UserSchema>;

export const ListQuery = {
  page: Type.Optional(
    Type.String({ minLength: 1, maxLength: 2000, description: 'The `next.page` of the previous response' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Items per page (default 50)' })),
};

export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Integer({ description: 'How many items match, over all pages' }),
    items: Type.Array(item),
  });
}

// Path parameters and pieces that several domains' routes share, defined once.
export const OrganizationParams = Type.Object({ organizationId: IdParam });
export const SpaceParams = Type.Object({ spaceId: IdParam });
export const CollectionParams = Type.Object({ collectionId: IdParam });
export const ChangeRequestParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The change request’s id or its number in the space',
  }),
});
export const MemberParams = Type.Object({ organizationId: IdParam, userId: IdParam });
export const ShareKeyQuery = Type.Object({
  shareKey: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Secret of a share-link space' })),
});
export const Emoji = Type.String({
  maxLength: 50,
  format: 'emoji',
  description: 'An emoji, or its code points in hex',
});

/** Schemas registered once with `$id`, so routes reference them and the OpenAPI document lists them. */
export const sharedSchemas = [ErrorResponse, UserSchema];
