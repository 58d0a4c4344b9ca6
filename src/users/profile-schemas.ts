import { Type, type Static } from '@sinclair/typebox';

/** A photo is shown wherever the user is: only a web address, never a `javascript:` or `data:` one. */
const PhotoUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  pattern: '^https?://',
  description: 'An http or https URL of the user’s profile picture',
});

/** The spec's body of updateUserById: at least one of the two fields. */
export const UpdateUserBody = Type.Object(
  {
    displayName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '\\S',
        description: 'Full name for the user, not only spaces',
      }),
    ),
    photoURL: Type.Optional(PhotoUrl),
  },
  { minProperties: 1, additionalProperties: false, examples: [{ displayName: 'Ada Lovelace' }] },
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;

/** The spec's APITemporaryToken. */
export const TemporaryTokenSchema = Type.Object({
  token: Type.String({ description: 'A JWT for the caller’s own notifications, valid for an hour' }),
});
export type TemporaryToken = Static<typeof TemporaryTokenSchema>;
