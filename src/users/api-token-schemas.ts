import { Type, type Static } from '@sinclair/typebox';
import { DateTime, NullableString, StringEnum } from '../core/schemas.js';

export const TOKEN_STATES = ['active', 'expired', 'revoked'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

export const ApiTokenSchema = Type.Object(
  {
    object: Type.Literal('api-token'),
    id: Type.String(),
    label: Type.String(),
    scopes: Type.Unsafe<string[] | null>({
      type: ['array', 'null'],
      items: { type: 'string' },
      description: 'What the token may do; null: everything its user may do',
    }),
    state: StringEnum(TOKEN_STATES, { description: 'Whether the token still authenticates, and if not, why' }),
    current: Type.Boolean({ description: 'Whether this is the token that made the request' }),
    createdAt: DateTime,
    expiresAt: NullableString({ format: 'date-time', description: 'When the token stops working; null: never' }),
    revokedAt: NullableString({ format: 'date-time', description: 'When the token was revoked, if it was' }),
  },
  { title: 'ApiToken', description: 'An API token, never its secret: that is shown once, when it is made' },
);
export type ApiToken = Static<typeof ApiTokenSchema>;

export const CreatedApiTokenSchema = Type.Object(
  {
    ...ApiTokenSchema.properties,
    token: Type.String({ description: 'The secret, to send as "Authorization: Bearer <token>"; shown only this once' }),
  },
  { title: 'CreatedApiToken', description: 'A token just made, with its secret' },
);
export type CreatedApiToken = Static<typeof CreatedApiTokenSchema>;
