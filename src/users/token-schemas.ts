import { Type, type Static } from '@sinclair/typebox';
import { IdParam, ListQuery, StringEnum } from '../core/schemas.js';
import { SCOPES, type Scope } from '../access/scopes.js';

/** As the CLI bounds it. */
export const MAX_LABEL_LENGTH = 50;
/** The farthest expiry a user may give their own token: ten years. */
export const MAX_EXPIRY_DAYS = 3650;
/**
 * A token an admin issues is a power handed over: it works only in that
 * organization, cannot make tokens, and lives a day at most.
 */
export const ISSUED_MAX_EXPIRY_HOURS = 24;
/** Live tokens (neither revoked nor expired) one user may hold. */
export const MAX_LIVE_TOKENS = 100;

const scopeList = (description: string) =>
  Type.Unsafe<Scope[] | null>({
    type: ['array', 'null'],
    items: { type: 'string', enum: [...SCOPES] },
    minItems: 1,
    maxItems: SCOPES.length,
    uniqueItems: true,
    description,
  });

const label = Type.String({ minLength: 1, maxLength: MAX_LABEL_LENGTH, description: 'What the token is for' });

const expiry = (maxDays: number, otherwise: string) => ({
  expiresInDays: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxDays,
      description: `Days until the token expires (at most ${maxDays}); not with expiresAt. ${otherwise}`,
    }),
  ),
  expiresAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description: `When the token expires: in the future, at most ${maxDays} days ahead; not with expiresInDays. ${otherwise}`,
    }),
  ),
});

export const CreateApiTokenBody = Type.Object(
  {
    label,
    scopes: Type.Optional(
      scopeList(
        'Scopes of the new token, each one the calling token has (a `:write` scope also gives its `:read`); null for full rights, which only a token with full rights may give. Omitted: the calling token’s scopes',
      ),
    ),
    ...expiry(MAX_EXPIRY_DAYS, 'Neither: the token never expires.'),
  },
  {
    additionalProperties: false,
    examples: [
      { label: 'CI publishing', scopes: ['space:read', 'space:write'], expiresInDays: 90 },
      { label: 'Laptop', expiresAt: '2030-01-01T00:00:00.000Z' },
    ],
  },
);
export type CreateApiTokenBody = Static<typeof CreateApiTokenBody>;

export const IssueMemberTokenBody = Type.Object(
  {
    label: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_LABEL_LENGTH, description: 'Default: "Issued by an admin"' }),
    ),
    scopes: Type.Optional(
      scopeList(
        'Scopes of the token, each one the calling token has; null for the member’s full rights, which only a token with full rights may give. Omitted: the calling token’s scopes',
      ),
    ),
    expiresInHours: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ISSUED_MAX_EXPIRY_HOURS,
        description: `Hours until the token expires (at most ${ISSUED_MAX_EXPIRY_HOURS}); not with expiresAt. Neither: ${ISSUED_MAX_EXPIRY_HOURS} hours.`,
      }),
    ),
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: `When the token expires: in the future, at most ${ISSUED_MAX_EXPIRY_HOURS} hours ahead; not with expiresInHours. Neither: ${ISSUED_MAX_EXPIRY_HOURS} hours.`,
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ label: 'First token', expiresInHours: 8 }, {}],
  },
);
export type IssueMemberTokenBody = Static<typeof IssueMemberTokenBody>;

export const ListApiTokensQuery = Type.Object({
  ...ListQuery,
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
});
export type ListApiTokensQuery = Static<typeof ListApiTokensQuery>;

export const ApiTokenParams = Type.Object({ tokenId: IdParam });
export type ApiTokenParams = Static<typeof ApiTokenParams>;
